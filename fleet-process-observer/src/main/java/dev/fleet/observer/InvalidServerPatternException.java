package dev.fleet.observer;

/**
 * A server process pattern that RE2J cannot compile: a syntax error, a construct no linear-time
 * engine offers (back-references, look-around, possessive quantifiers), or a pattern beyond
 * {@link PatternLimits} (too long, too deeply nested, repetition counts that multiply too far).
 */
public final class InvalidServerPatternException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;
    /** A message quotes at most this much of a pattern, which may be up to a roster file long. */
    static final int EXCERPT_CHARS = 100;

    private final int index;
    private final String pattern;
    private final String problem;

    InvalidServerPatternException(int index, String pattern, String problem) {
        super("server process pattern " + index + " does not compile as a linear-time (RE2) pattern: " + problem
                + " in '" + excerpt(pattern) + "'");
        this.index = index;
        this.pattern = pattern;
        this.problem = problem;
    }

    /** The position of the pattern in the list given to {@link ServerPatterns#compile}. */
    public int index() {
        return index;
    }

    /** The pattern as given. */
    public String pattern() {
        return pattern;
    }

    /** The pattern as a message shows it: whole up to {@value #EXCERPT_CHARS} characters, else its start. */
    public String excerpt() {
        return excerpt(pattern);
    }

    private static String excerpt(String pattern) {
        return pattern.length() <= EXCERPT_CHARS ? pattern
                : pattern.substring(0, EXCERPT_CHARS) + "... (" + pattern.length() + " characters)";
    }

    /** What RE2J objects to, with the offending part, e.g. {@code invalid escape sequence `\1`}. */
    public String problem() {
        return problem;
    }
}
