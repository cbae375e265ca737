package dev.fleet.domain;

/**
 * The one meaning of "blank" for text from outside: empty after trimming every Unicode space, not
 * only the ASCII ones {@link String#trim()} knows nor only those {@link String#strip()} knows (it
 * keeps NO-BREAK SPACE). A cohort of nothing but NBSP must not count as a known cohort while one of
 * EM SPACE counts as unknown.
 */
public final class Text {

    private Text() {
    }

    /** Whether {@code c} is a space of any kind: whitespace, or a Unicode space separator (NBSP included). */
    public static boolean isSpace(char c) {
        return Character.isWhitespace(c) || Character.isSpaceChar(c);
    }

    /** Null, or nothing but spaces of any kind. */
    public static boolean isBlank(String text) {
        return text == null || strip(text).isEmpty();
    }

    /** {@code text} without spaces of any kind at either end; null stays null. */
    public static String strip(String text) {
        if (text == null) {
            return null;
        }
        int start = 0;
        int end = text.length();
        while (start < end && isSpace(text.charAt(start))) {
            start++;
        }
        while (end > start && isSpace(text.charAt(end - 1))) {
            end--;
        }
        return text.substring(start, end);
    }

    /** {@code text} stripped, or null when it is blank. */
    public static String strippedOrNull(String text) {
        return isBlank(text) ? null : strip(text);
    }
}
