package dev.fleet.domain.verdict.encoding;

import java.nio.charset.StandardCharsets;

/**
 * Writes strings as {@link CanonicalJson} defines them: quote, backslash and control characters
 * (C0, DEL, C1) escaped, nothing else. Runs of plain ASCII, a verdict's usual string entire, are
 * copied a byte per character. An unpaired surrogate is written as its own three bytes (as UTF-8
 * writes any other character of its range) and reported, since the digest takes it as {@code '?'}.
 */
final class JsonStrings {

    /** Told where the three bytes of an unpaired surrogate start. */
    interface SurrogateMarks {
        void unpairedSurrogateAt(int position);
    }

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    /** The most bytes one character (of a surrogate pair, half) takes: a backslash, {@code u} and four hex digits. */
    private static final int MOST_BYTES_PER_CHAR = 6;

    private final Utf8Buffer out;
    private final SurrogateMarks marks;
    /** A string's characters, copied out of it once. */
    private char[] chars = new char[256];

    JsonStrings(Utf8Buffer out, SurrogateMarks marks) {
        this.out = out;
        this.marks = marks;
    }

    void write(String text) {
        int length = text.length();
        if (chars.length < length) {
            chars = new char[Math.max(length, chars.length * 2)];
        }
        char[] source = chars;
        text.getChars(0, length, source, 0);
        out.put((byte) '"');
        int i = 0;
        while (i < length) {
            int end = Math.min(length, i + out.room(length - i + 1, 1));
            byte[] bytes = out.bytes;
            int at = out.position;
            for (; i < end; i++) {
                char c = source[i];
                if (c >= 0x7f || c < 0x20 || c == '"' || c == '\\') {
                    break;
                }
                bytes[at++] = (byte) c;
            }
            out.position = at;
            if (i < end) {
                i = writeSpecial(source, i, length);
            }
        }
        out.put((byte) '"');
    }

    /** The character at {@code i} (two, for a surrogate pair), which is not plain ASCII; returns the index after it. */
    private int writeSpecial(char[] source, int i, int length) {
        out.ensure(MOST_BYTES_PER_CHAR);
        char c = source[i];
        if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
            // C0, DEL and C1: a terminal obeys them even inside a JSON string (ESC, CSI U+009B).
            put('\\', 'u', '0', '0');
            put(HEX[c >> 4], HEX[c & 0xF]);
            return i + 1;
        }
        if (c == '"' || c == '\\') {
            put('\\', c);
            return i + 1;
        }
        out.wide = true;
        if (c < 0x800) {
            put(0xC0 | (c >> 6), 0x80 | (c & 0x3F));
            return i + 1;
        }
        if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(source[i + 1])) {
            int codePoint = Character.toCodePoint(c, source[i + 1]);
            put(0xF0 | (codePoint >> 18), 0x80 | ((codePoint >> 12) & 0x3F));
            put(0x80 | ((codePoint >> 6) & 0x3F), 0x80 | (codePoint & 0x3F));
            return i + 2;
        }
        if (Character.isSurrogate(c)) {
            out.keptSurrogate = true;
            marks.unpairedSurrogateAt(out.position);
        }
        put(0xE0 | (c >> 12), 0x80 | ((c >> 6) & 0x3F));
        put(0x80 | (c & 0x3F));
        return i + 1;
    }

    private void put(int b) {
        out.bytes[out.position++] = (byte) b;
    }

    private void put(int b1, int b2) {
        byte[] bytes = out.bytes;
        int at = out.position;
        bytes[at] = (byte) b1;
        bytes[at + 1] = (byte) b2;
        out.position = at + 2;
    }

    private void put(int b1, int b2, int b3, int b4) {
        put(b1, b2);
        put(b3, b4);
    }
}
