package dev.fleet.domain;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The one way a failure becomes text for a person: a single line, never a stack trace. Every
 * adapter that reports an exception on stderr, in a log line or in a tool result goes through here,
 * so a multi-line or empty message cannot leak a trace or print nothing. Cause chains are followed
 * here too, at most {@value #CAUSES_FOLLOWED} deep, so a chain that loops back on itself (a library
 * can build one) always ends.
 */
public final class Failures {

    private static final int CAUSES_FOLLOWED = 16;
    /** Jackson's quote of where it read, with the parentheses or brackets around it: {@code (start marker at [Source: …])}. */
    private static final Pattern QUOTED_SOURCE = Pattern.compile("\\s*\\(?(start marker at )?\\[Source: [^\\]]*\\]\\)?");
    /** A library's advice to turn one of its features on: {@code : enable `JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS` to allow}. */
    private static final Pattern ENABLE_ADVICE = Pattern.compile("[:;,]?\\s*enable `[\\w.$()]+` to allow");
    /** A class, feature or method a library names in backticks: {@code (1000, from `StreamReadConstraints.getMaxNumberLength()`)}. */
    private static final Pattern CODE_NAME = Pattern.compile(",?\\s*(from |as per |bound as )?`[\\w.$()]+`");

    private Failures() {
    }

    /** {@code failure} and its causes, outermost first, at most {@value #CAUSES_FOLLOWED} of them. */
    public static List<Throwable> chain(Throwable failure) {
        List<Throwable> chain = new ArrayList<>();
        for (Throwable t = failure; t != null && chain.size() < CAUSES_FOLLOWED && !chain.contains(t);
                t = t.getCause()) {
            chain.add(t);
        }
        return chain;
    }

    /** The last of {@link #chain}: the cause that says what went wrong, wrappers aside. */
    public static Throwable innermost(Throwable failure) {
        List<Throwable> chain = chain(failure);
        return chain.get(chain.size() - 1);
    }

    /**
     * The first non-blank line of the first message with any text in {@code failure}'s cause chain,
     * or the exception's simple class name when none has text.
     */
    public static String oneLine(Throwable failure) {
        for (Throwable t : chain(failure)) {
            String line = firstLine(t.getMessage());
            if (line != null) {
                return line;
            }
        }
        return failure.getClass().getSimpleName();
    }

    /** {@link #oneLine} prefixed with the exception's simple class name, for a bug report. */
    public static String withKind(Throwable failure) {
        String line = firstLine(failure.getMessage());
        return line == null ? failure.getClass().getSimpleName() : failure.getClass().getSimpleName() + ": " + line;
    }

    /**
     * A parser's message without what is written for a programmer and names this tool's insides: the classes,
     * features and methods it names in backticks, and its quotes of its own source. Jackson's {@code Number value
     * length (5000) exceeds the maximum allowed (1000, from `StreamReadConstraints.getMaxNumberLength()`)} becomes
     * {@code … allowed (1000)}.
     */
    public static String withoutCodeNames(String message) {
        String unquoted = QUOTED_SOURCE.matcher(message).replaceAll("");
        return CODE_NAME.matcher(ENABLE_ADVICE.matcher(unquoted).replaceAll("")).replaceAll("").strip();
    }

    private static String firstLine(String message) {
        if (message == null) {
            return null;
        }
        return message.lines().map(Text::strip).filter(line -> !line.isEmpty()).findFirst().orElse(null);
    }
}
