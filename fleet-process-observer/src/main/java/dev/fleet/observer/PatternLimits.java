package dev.fleet.observer;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;

/**
 * The bounds a server process pattern must keep before RE2J sees it (docs/CONTRACT.md). RE2J
 * matches in linear time, but its parser recurses once per nested group (20,000 nested
 * parentheses overflowed the stack), its compile time grows with the square of a long pattern
 * (900 KB took over a minute), and it expands counted repetitions in full, so nested counts
 * multiply ({@code ((a{1000}){1000}){1000}} never finished). So, as RE2 itself bounds nested
 * repetition: at most {@value #MAX_CHARS} characters, {@value #MAX_NESTING} nested groups, and
 * nested repetition counts whose product is at most {@value #MAX_REPEAT_PRODUCT}.
 *
 * <p>One linear scan of the text, deliberately simple: it steps over escapes and character classes
 * ({@link PatternText}) so that their brackets, parentheses and braces count for nothing, and is
 * otherwise no parser; a pattern it lets through
 * can still fail RE2J's own syntax check.
 */
final class PatternLimits {

    static final int MAX_CHARS = 4096;
    static final int MAX_NESTING = 100;
    static final int MAX_REPEAT_PRODUCT = 1000;

    private final String pattern;
    private int position;

    private PatternLimits(String pattern) {
        this.pattern = pattern;
    }

    /** Why {@code pattern} exceeds a bound, or empty when it keeps them all. */
    static Optional<String> violation(String pattern) {
        if (pattern.length() > MAX_CHARS) {
            return Optional.of("longer than " + MAX_CHARS + " characters (" + pattern.length() + ")");
        }
        return new PatternLimits(pattern).scan();
    }

    private Optional<String> scan() {
        // Per open group: the largest product of repetition counts found inside it so far.
        Deque<long[]> groups = new ArrayDeque<>();
        groups.push(new long[] {1});
        long atom = 0; // the product inside the last atom, 0 when there is none to repeat
        while (position < pattern.length()) {
            char c = pattern.charAt(position++);
            switch (c) {
                case '\\' -> {
                    boolean nothingQuoted = pattern.startsWith("Q\\E", position);
                    position = PatternText.afterEscape(pattern, position);
                    atom = nothingQuoted ? atom : 1; // RE2J adds no operand for \Q\E: a count after it repeats the last
                }
                case '[' -> {
                    position = PatternText.afterClass(pattern, position);
                    atom = 1;
                }
                case '(' -> {
                    int flagsEnd = flagsOnlyEnd();
                    if (flagsEnd > 0) {
                        position = flagsEnd; // (?i) sets flags and adds no operand: a count after it repeats the last
                        continue;
                    }
                    if (groups.size() > MAX_NESTING) {
                        return Optional.of("groups nested more than " + MAX_NESTING + " deep");
                    }
                    groups.push(new long[] {1});
                    atom = 0;
                }
                case ')' -> {
                    atom = groups.size() > 1 ? groups.pop()[0] : 1; // an unmatched ')' is RE2J's to report
                }
                case '{' -> {
                    long count = atom == 0 ? 0 : repeatCount();
                    if (count > 0) {
                        atom = Math.min(atom * count, Long.MAX_VALUE / (MAX_REPEAT_PRODUCT + 1));
                        if (atom > MAX_REPEAT_PRODUCT) {
                            return Optional.of("nested repetition counts multiply to more than "
                                    + MAX_REPEAT_PRODUCT);
                        }
                    } else {
                        atom = 1; // a literal brace
                    }
                }
                case '|' -> atom = 0;
                case '*', '+', '?' -> {
                    // no copies made; a count right after one is RE2J's syntax error to report
                }
                default -> atom = 1;
            }
            long[] current = groups.peek();
            current[0] = Math.max(current[0], atom);
        }
        return Optional.empty();
    }

    /**
     * Just past a '(': where a group of flags alone ({@code (?i)}, {@code (?s-m)}) ends, or -1 when this
     * is a group of its own ({@code (?:..)}, {@code (?i:..)}, {@code (?P<name>..)}, a plain one).
     */
    private int flagsOnlyEnd() {
        if (!pattern.startsWith("?", position)) {
            return -1;
        }
        int end = position + 1;
        while (end < pattern.length() && "imsU-".indexOf(pattern.charAt(end)) >= 0) {
            end++;
        }
        return end > position + 1 && end < pattern.length() && pattern.charAt(end) == ')' ? end + 1 : -1;
    }

    /**
     * At {@code {n}}, {@code {n,}} or {@code {n,m}} (just past the brace): consumes it and returns
     * its largest count ({@code n + 1} for an open range, which RE2 expands as n copies and a star);
     * at anything else, 0 and nothing consumed, since RE2 reads such a brace as a literal.
     */
    private long repeatCount() {
        int end = PatternText.afterRepeat(pattern, position);
        if (end == position) {
            return 0;
        }
        String body = pattern.substring(position, end - 1);
        position = end;
        int comma = body.indexOf(',');
        if (comma < 0) {
            return Long.parseLong(body);
        }
        long min = Long.parseLong(body.substring(0, comma));
        String max = body.substring(comma + 1);
        return Math.max(1, max.isEmpty() ? min + 1 : Math.max(min, Long.parseLong(max)));
    }
}
