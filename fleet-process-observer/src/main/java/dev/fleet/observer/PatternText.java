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
     * Just past a backslash at {@code position}: where the escape ends, as RE2J's parser ends it: a
     * {@code \Q...\E} literal, a braced argument ({@code \p{..}}, {@code \x{..}}), a one-letter class
     * name ({@code \pL}), two hex digits ({@code \x41}) and an octal number ({@code \101}) included. An
     * escape's digits read as items of their own would pair a later {@code -} into a range that is none.
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
        if ((kind == 'p' || kind == 'P') && position < pattern.length()) {
            return position + Character.charCount(pattern.codePointAt(position)); // \pL: a one-letter name
        }
        if (kind == 'x') {
            return Math.min(position + 2, pattern.length()); // \x41: two hex digits
        }
        if (kind >= '0' && kind <= '7') {
            // \0, \101: up to two more octal digits (RE2J refuses \1-\7 alone, a back-reference)
            for (int more = 0; more < 2 && position < pattern.length() && isOctal(pattern.charAt(position)); more++) {
                position++;
            }
        }
        return position;
    }

    private static boolean isOctal(char c) {
        return c >= '0' && c <= '7';
    }

    /**
     * Just past a '[' at {@code position}: past its closing ']', read item by item as RE2J's parser
     * reads a class, since a scanner that ends a class elsewhere would take what follows for structure
     * (or skip a real {@code |}). A ']' first ({@code []a]}, {@code [^]a]}) is an item; {@code [:} starts
     * a named class only where an item starts and when a {@code :]} follows (RE2J refuses an unknown
     * name); a Perl or Unicode class escape is one item; any other item (an escape, one character) may
     * be a range's start, and its end, after a {@code -} not followed by ']', is one character or
     * escape, never a named class.
     */
    static int afterClass(String pattern, int position) {
        int length = pattern.length();
        if (position < length && pattern.charAt(position) == '^') {
            position++;
        }
        boolean first = true;
        while (position < length && (first || pattern.charAt(position) != ']')) {
            first = false;
            int named = pattern.startsWith("[:", position) ? pattern.indexOf(":]", position + 1) : -1;
            if (named >= 0) {
                position = named + 2;
            } else if (pattern.charAt(position) == '\\' && position + 1 < length
                    && "pPdDsSwW".indexOf(pattern.charAt(position + 1)) >= 0) {
                position = afterEscape(pattern, position + 1);
            } else {
                position = afterItem(pattern, position);
                if (position + 1 < length && pattern.charAt(position) == '-' && pattern.charAt(position + 1) != ']') {
                    position = afterItem(pattern, position + 1);
                }
            }
        }
        return Math.min(position + 1, length);
    }

    /** Past one character of a class, or one escape. */
    private static int afterItem(String pattern, int position) {
        if (position >= pattern.length()) {
            return position;
        }
        if (pattern.charAt(position) == '\\') {
            return afterEscape(pattern, position + 1);
        }
        return position + Character.charCount(pattern.codePointAt(position));
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
