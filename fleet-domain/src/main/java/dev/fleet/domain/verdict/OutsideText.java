package dev.fleet.domain.verdict;

/**
 * The cap on every string a verdict takes from outside the program (a command line, any text field
 * of a registry row): an answer must fit every client, and a process with a megabyte of argv must
 * not make the gate unanswerable. The cap is applied when the verdict is rendered, before
 * digesting, never before comparing: two long cohort ids that differ only past the cap still split
 * the cohort.
 */
public final class OutsideText {

    /** The contract: characters (Unicode code points) kept of a longer string. */
    public static final int MAX_CHARS = 4096;

    private OutsideText() {
    }

    /** {@code text} itself, or its first {@value #MAX_CHARS} characters and {@code …[truncated, N chars]}. */
    public static String cap(String text) {
        if (text == null || text.length() <= MAX_CHARS) {
            return text;
        }
        int length = text.codePointCount(0, text.length());
        if (length <= MAX_CHARS) {
            return text;
        }
        return text.substring(0, text.offsetByCodePoints(0, MAX_CHARS)) + "…[truncated, " + length + " chars]";
    }
}
