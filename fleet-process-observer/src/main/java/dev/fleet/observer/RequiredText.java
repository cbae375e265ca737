package dev.fleet.observer;

/**
 * Text that every match of a pattern holds, found without RE2J: a command line that does not
 * contain it cannot match, and {@link String#contains} reads a 2 MB command line in well under a
 * millisecond where RE2J's automaton, a step per character, takes a tenth of a second. A look at a
 * host where any user has started a few processes with huge argvs took seconds, every pattern run
 * over every one of them (the default patterns begin with a group, so RE2J's own literal-prefix
 * search never applies).
 *
 * <p>What counts: the longest run of literal characters in the pattern's top-level concatenation,
 * each one matched by itself alone. This is one conservative scan, not a parser: whatever it is not
 * sure of ends a run (a class, a group, {@code .}, an anchor, an escape that is not punctuation, a
 * character a quantifier follows), and whatever could make a literal mean more than itself (a
 * top-level {@code |}, any {@code (?} flag group, {@code \Q}, an escape it does not know) leaves
 * no required text at all, so the pattern is always given to RE2J. Wrong here would be an unseen
 * server, so the rule is: when in doubt, require nothing.
 */
final class RequiredText {

    /** Escaped letters that stand for one class or assertion and take no argument: they end a run. */
    private static final String PLAIN_ESCAPES = "sSdDwWbBAznrtfva";

    private RequiredText() {
    }

    /** The text every match of {@code pattern} contains, or "" when none is known (then every line is matched). */
    static String of(String pattern) {
        if (pattern.contains("(?") || pattern.contains("\\Q")) {
            return "";
        }
        StringBuilder run = new StringBuilder();
        String longest = "";
        int depth = 0;
        int position = 0;
        while (position < pattern.length()) {
            int c = pattern.codePointAt(position);
            position += Character.charCount(c);
            if (depth > 0) {
                switch (c) {
                    case '\\' -> position = PatternText.afterEscape(pattern, position);
                    case '[' -> position = PatternText.afterClass(pattern, position);
                    case '(' -> depth++;
                    case ')' -> depth--;
                    default -> {
                        // inside a group: it may be repeated zero times or alternated away
                    }
                }
                continue;
            }
            if (isLiteral(c)) {
                run.appendCodePoint(c);
                continue;
            }
            if (c == '\\') {
                char escaped = position < pattern.length() ? pattern.charAt(position) : 'E';
                position++;
                if (isPunctuation(escaped)) {
                    run.append(escaped);
                    continue;
                }
                if (PLAIN_ESCAPES.indexOf(escaped) < 0) {
                    return ""; // octal, hex, a Unicode class, a byte: its argument would read as literals here
                }
            }
            if (c == '|' || c == ')') {
                return ""; // a top-level alternative (or what RE2J would refuse)
            }
            if (c == '*' || c == '+' || c == '?' || c == '{') {
                dropLast(run); // the character before a quantifier may be absent or repeated
            }
            longest = longer(longest, run);
            run.setLength(0);
            switch (c) {
                case '[' -> position = PatternText.afterClass(pattern, position);
                case '(' -> depth = 1;
                case '{' -> position = PatternText.afterRepeat(pattern, position); // a literal brace stays in the scan
                default -> {
                    // '.', '^', '$', a quantifier, a plain escape: ends the run
                }
            }
        }
        return longer(longest, run);
    }

    /** A character that matches itself alone where it stands. */
    private static boolean isLiteral(int c) {
        return c >= 0x20 && "\\.+*?()|[]{}^$".indexOf(c) < 0 && c != 0x7f;
    }

    /** What an escape makes a literal of: ASCII punctuation ({@code \.}, {@code \/}, {@code \-}...). */
    private static boolean isPunctuation(char c) {
        return c > 0x20 && c < 0x7f && !Character.isLetterOrDigit(c);
    }

    private static void dropLast(StringBuilder run) {
        if (run.length() > 0) {
            run.setLength(run.offsetByCodePoints(run.length(), -1));
        }
    }

    private static String longer(String longest, CharSequence run) {
        return run.length() > longest.length() ? run.toString() : longest;
    }
}
