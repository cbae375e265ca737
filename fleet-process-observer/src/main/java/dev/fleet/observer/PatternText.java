package dev.fleet.observer;

/**
 * The two pieces of RE2 syntax whose insides are no structure, for the scanners that read a
 * pattern without parsing it ({@link PatternLimits}, {@link RequiredText}): an escape, and a
 * character class. Past either, the brackets, parentheses and braces they held count for nothing.
 */
final class PatternText {

    private PatternText() {
    }

    /**
     * Just past a backslash at {@code position}: where the escape ends, a {@code \Q...\E} literal or
     * a braced argument ({@code \p{..}}, {@code \x{..}}) included.
     */
    static int afterEscape(String pattern, int position) {
        if (position >= pattern.length()) {
            return position;
        }
        char kind = pattern.charAt(position++);
        if (kind == 'Q') {
            int end = pattern.indexOf("\\E", position);
            return end < 0 ? pattern.length() : end + 2;
        }
        if ((kind == 'p' || kind == 'P' || kind == 'x') && position < pattern.length()
                && pattern.charAt(position) == '{') {
            int end = pattern.indexOf('}', position);
            return end < 0 ? pattern.length() : end + 1;
        }
        return position;
    }

    /** Just past a '[' at {@code position}: past its closing ']', which may come first ({@code []a]}, {@code [^]a]}). */
    static int afterClass(String pattern, int position) {
        if (position < pattern.length() && pattern.charAt(position) == '^') {
            position++;
        }
        if (position < pattern.length() && pattern.charAt(position) == ']') {
            position++;
        }
        while (position < pattern.length()) {
            char c = pattern.charAt(position++);
            if (c == '\\') {
                position = afterEscape(pattern, position);
            } else if (c == '[' && position < pattern.length() && pattern.charAt(position) == ':') {
                int end = pattern.indexOf(":]", position);
                position = end < 0 ? pattern.length() : end + 2;
            } else if (c == ']') {
                return position;
            }
        }
        return position;
    }

    /**
     * Just past a '{' at {@code position}: past its '}' when the two make a count ({@code {n}},
     * {@code {n,}}, {@code {n,m}}, each count 1 to 9 digits); else {@code position} itself, since RE2
     * reads such a brace as a literal.
     */
    static int afterRepeat(String pattern, int position) {
        int end = pattern.indexOf('}', position);
        return end >= 0 && isRepeatBody(pattern.substring(position, end)) ? end + 1 : position;
    }

    private static boolean isRepeatBody(String body) {
        int comma = body.indexOf(',');
        String min = comma < 0 ? body : body.substring(0, comma);
        String max = comma < 0 ? "" : body.substring(comma + 1);
        return digits(min, 1) && digits(max, 0);
    }

    private static boolean digits(String text, int least) {
        if (text.length() < least || text.length() > 9) {
            return false;
        }
        return text.chars().allMatch(c -> c >= '0' && c <= '9');
    }
}
