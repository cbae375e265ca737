package dev.fleet.domain;

/**
 * The one way a failure becomes text for a person: a single line, never a stack trace. Every
 * adapter that reports an exception on stderr, in a log line or in a tool result goes through here,
 * so a multi-line or empty message cannot leak a trace or print nothing.
 */
public final class Failures {

    private static final int CAUSES_FOLLOWED = 16;

    private Failures() {
    }

    /**
     * The first non-blank line of the first message with any text in {@code failure}'s cause chain
     * (followed at most {@value #CAUSES_FOLLOWED} deep, so a cyclic chain ends), or the exception's
     * simple class name when none has text.
     */
    public static String oneLine(Throwable failure) {
        Throwable t = failure;
        for (int depth = 0; t != null && depth < CAUSES_FOLLOWED; depth++, t = t.getCause()) {
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

    private static String firstLine(String message) {
        if (message == null) {
            return null;
        }
        return message.lines().map(Text::strip).filter(line -> !line.isEmpty()).findFirst().orElse(null);
    }
}
