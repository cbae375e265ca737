package dev.fleet.observer;

import com.google.re2j.Pattern;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The one matcher of server process patterns (docs/CONTRACT.md): a command line looks like a fleet server
 * when any pattern is <em>found</em> anywhere in it, as {@code Matcher.find()} does. Patterns are
 * RE2 syntax, compiled by RE2J, whose matching takes time linear in the command line: a command
 * line is written by whoever starts the process, and no crafted argv may make an assessment hang.
 * RE2 has no back-references and no look-around; a pattern that uses them does not compile.
 *
 * <p>Immutable and thread-safe.
 */
public final class ServerPatterns {

    /** Command lines remembered at most; past it the memory starts afresh. */
    static final int REMEMBERED_COMMAND_LINES = 4096;
    /** Longer command lines are remembered by their SHA-256 rather than kept whole. */
    static final int LONGEST_REMEMBERED = 8192;

    private final List<Pattern> patterns;
    /** Per pattern, in order, the text its every match holds ({@link RequiredText}), or "" for none known. */
    private final List<String> required;
    /**
     * Each command line's answer, since a scan meets the same few hundred command lines again and
     * again and RE2J's matching (linear, but an automaton step per character) was most of a warm
     * assessment. The answer depends only on the text, so it is exact.
     */
    private final Map<String, Boolean> answers = new ConcurrentHashMap<>();

    private ServerPatterns(List<Pattern> patterns) {
        this.patterns = patterns;
        this.required = patterns.stream().map(pattern -> RequiredText.of(pattern.pattern())).toList();
    }

    /**
     * Compiles every pattern, in order.
     *
     * @throws InvalidServerPatternException naming the first pattern RE2J cannot compile (in time: {@link
     *     BoundedCompile}), or that exceeds {@link PatternLimits} (checked first: RE2J is not given what it
     *     cannot bound)
     */
    public static ServerPatterns compile(List<String> patterns) {
        Objects.requireNonNull(patterns, "patterns");
        List<Pattern> compiled = new ArrayList<>(patterns.size());
        for (int i = 0; i < patterns.size(); i++) {
            String pattern = Objects.requireNonNull(patterns.get(i), "patterns[" + i + "]");
            int index = i;
            PatternLimits.violation(pattern).ifPresent(problem -> {
                throw new InvalidServerPatternException(index, pattern, problem);
            });
            compiled.add(BoundedCompile.compile(i, pattern));
        }
        return new ServerPatterns(List.copyOf(compiled));
    }

    /** True when there is no pattern at all: then no command line matches. */
    public boolean isEmpty() {
        return patterns.isEmpty();
    }

    /** Whether any pattern is found in {@code commandLine}; a null command line matches none. */
    public boolean matches(String commandLine) {
        return matches(commandLine, () -> digest(commandLine));
    }

    /**
     * As {@link #matches(String)}, a line over {@value #LONGEST_REMEMBERED} characters remembered under {@code
     * longLineKey}: a key no command line can be (one holding a NUL), of anything the line's text is a function of
     * (the bytes it was read from, {@link LongLines#keyOf}), asked for only when the line may match.
     */
    boolean matches(String commandLine, Supplier<String> longLineKey) {
        if (commandLine == null || !holdsRequiredText(commandLine)) {
            return false; // no pattern's required text: no match, found without the digest a huge line's memory costs
        }
        // A command line may be 2 MB (the kernel's bound), which RE2J takes a quarter of a second to scan:
        // any user's few such processes made every look of a watch take seconds. Its digest (a key no
        // command line can be: those hold no NUL) is read in milliseconds, and as exact.
        String key = commandLine.length() > LONGEST_REMEMBERED ? longLineKey.get() : commandLine;
        Boolean known = answers.get(key);
        if (known != null) {
            return known;
        }
        boolean found = match(commandLine);
        if (answers.size() >= REMEMBERED_COMMAND_LINES) {
            answers.clear();
        }
        answers.put(key, found);
        return found;
    }

    private static String digest(String commandLine) {
        try {
            byte[] sha = MessageDigest.getInstance("SHA-256").digest(commandLine.getBytes(StandardCharsets.UTF_16BE));
            return "\u0000sha-256 " + HexFormat.of().formatHex(sha);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** How many characters the remembered command lines' keys hold together: the memory's cost. */
    int rememberedCharacters() {
        return answers.keySet().stream().mapToInt(String::length).sum();
    }

    /** Whether some pattern could match: one that requires no text, or whose text the line holds. */
    private boolean holdsRequiredText(String commandLine) {
        for (String text : required) {
            if (commandLine.contains(text)) {
                return true;
            }
        }
        return false;
    }

    private boolean match(String commandLine) {
        for (int i = 0; i < patterns.size(); i++) {
            if (commandLine.contains(required.get(i)) && patterns.get(i).matcher(commandLine).find()) {
                return true;
            }
        }
        return false;
    }
}
