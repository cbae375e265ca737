package dev.fleet.domain;

/**
 * Text that came from elsewhere (roster files, command lines, rows other tools wrote, option
 * values), made safe for a terminal: characters a terminal obeys or that reorder or break the line
 * are shown as {@code \xNN} (or a backslash, u and four hex digits) instead, so a process cannot
 * paint "GATE SATISFIED" over the real verdict, hide text by reversing it, or start a second line
 * of an error. Those are
 * the C0 controls (newline and ESC among them), DEL, the C1 controls (CSI U+009B among them), the
 * bidirectional controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) and the line and paragraph
 * separators (U+2028, U+2029). JSON output is escaped by its writer instead.
 */
public final class Printable {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Printable() {
    }

    public static String of(Object value) {
        if (value == null) {
            return null;
        }
        String text = value.toString();
        StringBuilder safe = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean unsafe = unsafe(c);
            if (unsafe && safe == null) {
                safe = new StringBuilder(text.length() + 8).append(text, 0, i);
            }
            if (safe != null) {
                if (unsafe) {
                    escape(safe, c);
                } else {
                    safe.append(c);
                }
            }
        }
        return safe == null ? text : safe.toString();
    }

    /**
     * Appends {@code c} as {@code \xNN} (up to U+00FF) or a backslash, u and four hex digits: by hand, since a
     * hostile row may hold thousands of such characters and {@link String#format} costs a microsecond each.
     */
    private static void escape(StringBuilder safe, char c) {
        int digits = c <= 0xff ? 2 : 4;
        safe.append('\\').append(c <= 0xff ? 'x' : 'u');
        for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4) {
            safe.append(HEX[(c >> shift) & 0xf]);
        }
    }

    /** Whether a terminal would obey {@code c} or it would reorder or break the line: the characters this class shows. */
    public static boolean isControl(char c) {
        return unsafe(c);
    }

    private static boolean unsafe(char c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u061c' || c == '\u200e' || c == '\u200f'
                || (c >= '\u2028' && c <= '\u202e') || (c >= '\u2066' && c <= '\u2069');
    }
}
