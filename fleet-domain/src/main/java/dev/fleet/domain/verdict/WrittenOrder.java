package dev.fleet.domain.verdict;

import java.util.Comparator;

/**
 * Strings in the order of their canonical JSON tokens, compared without encoding them: a string
 * is its escaped characters ({@code \"}, {@code \\}, {@code \\u00XX} (lower-case hex) for C0, DEL and C1) then its
 * closing quote, and {@code null} comes after every string (as {@code n} after {@code "}). This is
 * not the strings' natural order: {@code "a b"} comes before {@code "a"}, since a space sorts
 * before the quote that closes {@code "a"}. It keeps the verdict's tie-breaks where the encodings
 * of whole entries put them.
 */
final class WrittenOrder {

    static final Comparator<String> TEXT = WrittenOrder::compare;

    private static final String HEX = "0123456789abcdef";
    private static final int END = -1;

    private WrittenOrder() {
    }

    static int compare(String a, String b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : 1) : -1;
        }
        Written x = new Written(a);
        Written y = new Written(b);
        while (true) {
            int cx = x.next();
            int cy = y.next();
            if (cx != cy) {
                return Integer.compare(cx, cy);
            }
            if (cx == END) {
                return 0;
            }
        }
    }

    /** The characters of one string's token after its opening quote, one at a time. */
    private static final class Written {
        private final String text;
        private int index;
        private final char[] pending = new char[5];
        private int pendingAt;
        private int pendingEnd;

        Written(String text) {
            this.text = text;
        }

        int next() {
            if (pendingAt < pendingEnd) {
                return pending[pendingAt++];
            }
            if (index > text.length()) {
                return END;
            }
            if (index == text.length()) {
                index++;
                return '"';
            }
            char c = text.charAt(index++);
            if (c == '"' || c == '\\') {
                escape(String.valueOf(c));
                return '\\';
            }
            if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
                escape("u00" + HEX.charAt(c >> 4) + HEX.charAt(c & 0xF));
                return '\\';
            }
            return c;
        }

        private void escape(String rest) {
            rest.getChars(0, rest.length(), pending, 0);
            pendingAt = 0;
            pendingEnd = rest.length();
        }
    }
}
