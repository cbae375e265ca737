package dev.fleet.domain.host;

import java.util.regex.Pattern;

/**
 * A text that a regular expression may read only so many characters of: the JDK's engine backtracks,
 * and a crafted command line must not make a look at the host hang. Every {@link #charAt} spends one
 * unit of the budget; a search that spends it all ends as no match. The count depends on the text and
 * the pattern alone, so the outcome is the same on every run.
 */
final class BoundedText implements CharSequence {

    /** Characters a search may read per character of the text, and at least. */
    private static final long READS_PER_CHAR = 64;
    private static final long MINIMUM_READS = 65_536;

    private final String text;
    private final int start;
    private final int end;
    private final long[] budget;

    private BoundedText(String text, int start, int end, long[] budget) {
        this.text = text;
        this.start = start;
        this.end = end;
        this.budget = budget;
    }

    /** Whether {@code pattern} is found in {@code text} within the budget. */
    static boolean find(Pattern pattern, String text) {
        long[] budget = {MINIMUM_READS + READS_PER_CHAR * text.length()};
        try {
            return pattern.matcher(new BoundedText(text, 0, text.length(), budget)).find();
        } catch (Exhausted e) {
            return false;
        } catch (StackOverflowError e) {
            // The JDK's engine recurses per repetition; a line that deep is no match either.
            return false;
        }
    }

    @Override
    public int length() {
        return end - start;
    }

    @Override
    public char charAt(int index) {
        if (--budget[0] < 0) {
            throw new Exhausted();
        }
        if (index < 0 || index >= end - start) {
            throw new IndexOutOfBoundsException(index);
        }
        return text.charAt(start + index);
    }

    @Override
    public CharSequence subSequence(int from, int to) {
        if (from < 0 || to > end - start || from > to) {
            throw new IndexOutOfBoundsException(from);
        }
        return new BoundedText(text, start + from, start + to, budget);
    }

    @Override
    public String toString() {
        return text.substring(start, end);
    }

    /** The budget is spent: thrown through the engine, caught by {@link #find}. */
    private static final class Exhausted extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Exhausted() {
            super(null, null, false, false);
        }
    }
}
