package dev.fleet.observer;

/**
 * A server process pattern that RE2J cannot compile: a syntax error, or a construct no linear-time
 * engine offers (back-references, look-around, possessive quantifiers).
 */
public final class InvalidServerPatternException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final int index;
    private final String pattern;
    private final String problem;

    InvalidServerPatternException(int index, String pattern, String problem) {
        super("server process pattern " + index + " does not compile as a linear-time (RE2) pattern: " + problem
                + " in '" + pattern + "'");
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

    /** What RE2J objects to, with the offending part, e.g. {@code invalid escape sequence `\1`}. */
    public String problem() {
        return problem;
    }
}
