package dev.fleet.cli.mcpconfig;

import dev.fleet.cli.exit.ConfigurationException;
import dev.fleet.clientconfig.ExecWrappers;
import dev.fleet.clientconfig.NpxTitle;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.SecretMask;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code fleet mcp-config --server-command 'COMMAND ARG…'}: the operator's own server, as one line
 * split into words as a POSIX shell splits it ({@link ShellWords}) but never run by one, with
 * {@code {profile}}, {@code {namespace}} and {@code {role}} filled in per member: each replaced
 * once, left to right, so that a value holding a placeholder's spelling is never read again.
 */
public record ServerTemplate(List<String> words) {

    private static final String OPTION = "--server-command";
    private static final List<Placeholder> PLACEHOLDERS = List.of(
            new Placeholder("{profile}", RosterMember::profile),
            new Placeholder("{namespace}", RosterMember::namespace),
            new Placeholder("{role}", RosterMember::role));
    /** What reads as a placeholder: a name in braces, such as {@code {profil}}; JSON such as {@code {"a":1}} does not. */
    private static final Pattern PLACEHOLDER_LIKE = Pattern.compile("\\{[A-Za-z_][A-Za-z0-9_.-]*}");

    public ServerTemplate {
        words = List.copyOf(words);
        if (words.isEmpty()) {
            throw new ConfigurationException(OPTION + " is empty: give the command that starts your server");
        }
        for (String word : words) {
            Matcher placeholder = PLACEHOLDER_LIKE.matcher(word);
            while (placeholder.find()) {
                String found = placeholder.group();
                if (PLACEHOLDERS.stream().noneMatch(known -> known.spelling().equals(found))) {
                    throw new ConfigurationException(OPTION + " holds an unknown placeholder " + found
                            + ": the placeholders are {profile}, {namespace} and {role}");
                }
            }
        }
    }

    /** The words of {@code line}; an unclosed quote, or what only a shell could run, is a usage error. */
    public static ServerTemplate parse(String line) {
        // How Java reads bytes of an argument that are not text in the locale's charset: the entries would start
        // another file than the one named (the registry audit's 6), as a path option would open one (PathConverter).
        if (line.indexOf('\uFFFD') >= 0) {
            throw new ConfigurationException(OPTION + " holds bytes that are not text in this locale's charset, so "
                    + "the entries would start another program or file than the one named; run with a UTF-8 locale");
        }
        return new ServerTemplate(ShellWords.split(line, OPTION));
    }

    /** The words for {@code member}, its placeholders filled in. */
    public List<String> forMember(RosterMember member) {
        return words.stream().map(word -> expanded(word, member)).toList();
    }

    /** Whether any word names a placeholder: without one, every fleet's copies of the server look alike. */
    public boolean hasPlaceholder() {
        return words.stream().anyMatch(word -> !segments(word).stream().allMatch(Segment::literal));
    }

    /**
     * The words that name a path relative to the working directory: a word (or the value of
     * {@code --opt=value}) holding a {@code /} that does not start with one, or {@code .} or
     * {@code ..}; a URL ({@code scheme://}) and an npm scope ({@code @org/pkg}) are none; and, after the
     * program (which {@code PATH} finds), a plain name that names a file in one of
     * {@code places} (the operator's directory and the checkout: {@code python3 server.py}). A client
     * starts its servers in a directory of its own, so such a path may name nothing there. A secret
     * ({@link SecretMask}) is never one: it is not to be shown.
     */
    public List<String> relativePaths(List<Path> places) {
        List<String> relative = new ArrayList<>();
        for (int i = 0; i < words.size(); i++) {
            String word = words.get(i);
            if (!SecretMask.argv(words.subList(Math.max(0, i - 1), i + 1)).endsWith(word)) {
                continue; // masked, alone or as the value of the option before it
            }
            String path = word.startsWith("-") && word.indexOf('=') > 0 ? word.substring(word.indexOf('=') + 1) : word;
            boolean looksRelative = path.equals(".") || path.equals("..")
                    || (path.contains("/") && !path.startsWith("/") && !path.contains("://") && !path.startsWith("@"));
            if (looksRelative || i > 0 && !path.contains("/") && namesAFileIn(path, places)) {
                relative.add(word);
            }
        }
        return relative;
    }

    /**
     * Whether plain name {@code name} (no placeholder, no option) is a file in one of {@code places}: a folder's
     * name is too often a mere value ({@code --mode docs}).
     */
    private static boolean namesAFileIn(String name, List<Path> places) {
        if (name.isEmpty() || name.startsWith("-") || !segments(name).stream().allMatch(Segment::literal)) {
            return false;
        }
        try {
            return places.stream().anyMatch(place -> Files.isRegularFile(place.resolve(name)));
        } catch (InvalidPathException notAPath) {
            return false;
        }
    }

    /**
     * The roster pattern (RE2) found in the command line of exactly the servers the entries for
     * {@code members} start, as a process table shows it (arguments joined by single spaces): the words
     * from the program on, literal, the program as written (one named without a directory may show
     * with the one {@code PATH} gave it, or as the script path its interpreter was given), past any
     * wrapper that runs it by exec ({@code env}, {@code nohup}: {@link ExecWrappers}); for {@code npx},
     * from the first word npm runs, as npx retitles itself ({@link NpxTitle}). Where
     * members' lines differ (placeholders), the words from the first difference to the last are one
     * alternative per member, so it finds this roster's servers and none that another fleet's entries
     * start with other names, nor another program given the same arguments (a {@code fleet serve
     * --profile prgs-author} of another fleet). A secret ({@link SecretMask}) stands for any text: the
     * pattern never holds it, and it also finds the masked {@code server_command} a row records.
     */
    public String pattern(List<RosterMember> members) {
        int from = shownFrom();
        List<String> lines = members.stream()
                .map(member -> SecretMask.argv(forMember(member).subList(from, words.size())))
                .distinct().toList();
        StringBuilder pattern = new StringBuilder(words.get(from).contains("/") ? "(^|\\s)" : "(^|[\\s/])");
        if (lines.size() == 1) {
            pattern.append(masked(lines.get(0)));
        } else {
            int prefix = sharedWords(lines);
            int suffix = sharedWords(lines.stream().map(line -> reversed(line.substring(prefix))).toList());
            String first = lines.get(0);
            pattern.append(masked(first.substring(0, prefix))).append("(?:");
            pattern.append(String.join("|", lines.stream()
                    .map(line -> masked(line.substring(prefix, line.length() - suffix))).toList()));
            pattern.append(')').append(masked(first.substring(first.length() - suffix)));
        }
        return pattern.append("(\\s|$)").toString();
    }

    /**
     * The first word a process table shows of this command: the program's, past any wrapper that runs it
     * by exec ({@link ExecWrappers}: {@code env X=1 srv} shows as {@code srv}), or an npx (or
     * {@code npm exec}) command's first word that npm runs (npm shows as {@code npm exec}, without the
     * options it reads itself); the program's where it is given nothing to run.
     */
    private int shownFrom() {
        int command = ExecWrappers.commandAt(words);
        int npmRuns = NpxTitle.isNpx(words.get(command)) ? command + 1
                : NpxTitle.isNpmExec(words.subList(command, words.size())) ? command + 2 : -1;
        if (npmRuns < 0) {
            return command;
        }
        List<String> run = NpxTitle.withoutNpxOptions(words.subList(npmRuns, words.size()));
        return run.isEmpty() ? command : words.size() - run.size();
    }

    /**
     * How many leading characters all {@code lines} share, cut back to just after a space, so that what
     * differs starts a word (read backwards, so that it ends one).
     */
    private static int sharedWords(List<String> lines) {
        String first = lines.get(0);
        int shared = first.length();
        for (String line : lines) {
            int i = 0;
            while (i < Math.min(shared, line.length()) && line.charAt(i) == first.charAt(i)) {
                i++;
            }
            shared = i;
        }
        return shared == 0 ? 0 : first.lastIndexOf(' ', shared - 1) + 1;
    }

    private static String reversed(String text) {
        return new StringBuilder(text).reverse().toString();
    }

    /** {@code text} literally, each masked secret standing for any text. */
    private static String masked(String text) {
        List<String> parts = new ArrayList<>();
        for (String part : text.split(Pattern.quote(SecretMask.MASK), -1)) {
            parts.add(literal(part));
        }
        return String.join(".+?", parts);
    }

    /**
     * A pattern that finds this fleet's own members and no other fleet's: a {@code fleet.jar serve}
     * whose command line names {@code registry}, as every entry {@code mcp-config} writes with a
     * registry does.
     */
    public static String membersPattern(String registry) {
        return "(^|[\\s/])fleet\\.jar serve .*--registry " + literal(registry) + "(\\s|$)";
    }

    /**
     * {@code text} matched literally by RE2: each character with a meaning escaped, each control
     * character (a tab, a line break) by its code, so that it matches itself and nothing else.
     */
    static String literal(String text) {
        StringBuilder escaped = new StringBuilder();
        text.codePoints().forEach(c -> {
            if ("\\.[]{}()*+?^$|".indexOf(c) >= 0) {
                escaped.append('\\').appendCodePoint(c);
            } else if (Character.isISOControl(c)) {
                escaped.append(String.format("\\x{%x}", c));
            } else {
                escaped.appendCodePoint(c);
            }
        });
        return escaped.toString();
    }

    private static String expanded(String word, RosterMember member) {
        StringBuilder expanded = new StringBuilder();
        segments(word).forEach(segment -> expanded.append(segment.text(member)));
        return expanded.toString();
    }

    /** {@code word} as literal text and placeholders, read once from left to right. */
    private static List<Segment> segments(String word) {
        List<Segment> segments = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int i = 0;
        while (i < word.length()) {
            Placeholder found = null;
            for (Placeholder placeholder : PLACEHOLDERS) {
                if (word.startsWith(placeholder.spelling(), i)) {
                    found = placeholder;
                }
            }
            if (found == null) {
                literal.append(word.charAt(i++));
                continue;
            }
            if (literal.length() > 0) {
                segments.add(new Segment(literal.toString(), null));
                literal.setLength(0);
            }
            segments.add(new Segment(found.spelling(), found));
            i += found.spelling().length();
        }
        if (literal.length() > 0 || segments.isEmpty()) {
            segments.add(new Segment(literal.toString(), null));
        }
        return segments;
    }

    private record Placeholder(String spelling, Function<RosterMember, String> value) {
    }

    /** Literal text (no placeholder), or a placeholder that each member fills in. */
    private record Segment(String spelling, Placeholder placeholder) {

        boolean literal() {
            return placeholder == null;
        }

        String text(RosterMember member) {
            return literal() ? spelling : placeholder.value().apply(member);
        }
    }
}
