package dev.fleet.domain.verdict;

import dev.fleet.domain.Timestamps;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Arrays;

/**
 * The canonical encoding ({@link CanonicalJson}), written value by value into a buffer that is
 * handed to a {@link Output} whenever it fills: to a {@link StringBuilder} for the text, or as
 * UTF-8 straight into a {@link MessageDigest} for {@code verdict_digest}. A large verdict is
 * then never held as a tree, a String and a byte array at once just to be digested.
 */
final class CanonicalWriter implements DocumentSink {

    /** Receives the encoding, a chunk at a time, in order. */
    interface Output {
        void write(char[] chars, int length);

        /** Called once, after the last chunk. */
        default void finish() {
        }
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();
    private static final char[] NULL = "null".toCharArray();
    private static final char[] TRUE = "true".toCharArray();
    private static final char[] FALSE = "false".toCharArray();
    /** The longest decimal long: {@code -9223372036854775808}. */
    private static final int LONGEST_NUMBER = 20;
    private static final int CAPACITY = 8192;

    private final Output output;
    private char[] buffer;
    private int capacity;
    private int position;
    /** Per open container: whether nothing has been written in it yet. */
    private boolean[] first = new boolean[16];
    private int depth;
    private boolean afterName;

    private CanonicalWriter(Output output, int initialCapacity) {
        this.output = output;
        this.buffer = new char[initialCapacity];
        this.capacity = initialCapacity;
    }

    /** Into a String: see {@link #text()}. */
    static CanonicalWriter forText() {
        return new CanonicalWriter(new Text(), CAPACITY);
    }

    /** As UTF-8 (exactly the bytes {@code String.getBytes(UTF_8)} gives) into {@code digest}. */
    static CanonicalWriter to(MessageDigest digest) {
        return new CanonicalWriter(new Utf8Digest(digest), CAPACITY);
    }

    /** Hands over what is still buffered; call once, when the document is complete. */
    void finish() {
        flush();
        output.finish();
    }

    /** Finishes, and returns the text written, for a writer made by {@link #forText()}. */
    String text() {
        finish();
        return ((Text) output).text();
    }

    @Override
    public void beginObject() {
        beforeValue();
        open('{');
    }

    @Override
    public void endObject() {
        close('}');
    }

    @Override
    public void beginArray() {
        beforeValue();
        open('[');
    }

    @Override
    public void endArray() {
        close(']');
    }

    @Override
    public void name(FieldName name) {
        char[] encoded = name.encoded;
        if (capacity - position < encoded.length + 1) {
            flush();
        }
        if (!first[depth]) {
            buffer[position++] = ',';
        }
        first[depth] = false;
        System.arraycopy(encoded, 0, buffer, position, encoded.length);
        position += encoded.length;
        afterName = true;
    }

    /** A name not known in advance (a tree's key). */
    void name(String name) {
        if (!first[depth]) {
            append(',');
        }
        first[depth] = false;
        writeString(name);
        append(':');
        afterName = true;
    }

    @Override
    public void string(String value) {
        beforeValue();
        if (value == null) {
            appendLiteral(NULL);
        } else {
            writeString(value);
        }
    }

    @Override
    public void number(int value) {
        beforeValue();
        writeNumber(value);
    }

    @Override
    public void number(long value) {
        beforeValue();
        writeNumber(value);
    }

    @Override
    public void bool(Boolean value) {
        beforeValue();
        appendLiteral(value == null ? NULL : value ? TRUE : FALSE);
    }

    @Override
    public void instant(Instant value) {
        // The written form is digits and punctuation only: nothing to escape.
        beforeValue();
        if (value == null) {
            appendLiteral(NULL);
            return;
        }
        if (capacity - position < Timestamps.WRITTEN_LENGTH + 2) {
            flush();
        }
        buffer[position] = '"';
        if (Timestamps.formatInto(value, buffer, position + 1)) {
            position += Timestamps.WRITTEN_LENGTH + 1;
            buffer[position++] = '"';
        } else {
            position++;
            appendAscii(Timestamps.format(value));
            append('"');
        }
    }

    @Override
    public void nullValue() {
        beforeValue();
        appendLiteral(NULL);
    }

    /** A value this class has already written as canonical JSON, copied in as it is. */
    void fragment(String json) {
        beforeValue();
        appendRange(json, 0, json.length());
    }

    /** {@code Long.toString(value)}, written in place. */
    private void writeNumber(long value) {
        if (value == Long.MIN_VALUE) {
            appendAscii(Long.toString(value));
            return;
        }
        if (capacity - position < LONGEST_NUMBER) {
            flush();
        }
        if (value < 0) {
            buffer[position++] = '-';
            value = -value;
        }
        int digits = 1;
        for (long rest = value / 10; rest > 0; rest /= 10) {
            digits++;
        }
        int at = position + digits;
        position = at;
        do {
            buffer[--at] = (char) ('0' + value % 10);
            value /= 10;
        } while (value > 0);
    }

    private void appendLiteral(char[] literal) {
        if (capacity - position < literal.length) {
            flush();
        }
        System.arraycopy(literal, 0, buffer, position, literal.length);
        position += literal.length;
    }

    private void open(char bracket) {
        append(bracket);
        depth++;
        if (depth == first.length) {
            first = Arrays.copyOf(first, depth * 2);
        }
        first[depth] = true;
    }

    private void close(char bracket) {
        depth--;
        append(bracket);
    }

    /** A value in an array is preceded by a comma unless it is the first; after a name, never. */
    private void beforeValue() {
        if (afterName) {
            afterName = false;
        } else if (depth > 0) {
            if (!first[depth]) {
                append(',');
            }
            first[depth] = false;
        }
    }

    /** Quote, backslash and control characters escaped, nothing else: as {@link CanonicalJson} defines. */
    private void writeString(String text) {
        append('"');
        int length = text.length();
        if (length > capacity - position && length < CAPACITY) {
            flush();
        }
        if (length <= capacity - position) {
            // Usually nothing needs escaping: copy in bulk, then look.
            text.getChars(0, length, buffer, position);
            int start = position;
            int end = start + length;
            for (int i = start; i < end; i++) {
                char c = buffer[i];
                if (c == '"' || c == '\\' || c < 0x20) {
                    position = i;
                    writeEscaped(text, i - start);
                    append('"');
                    return;
                }
            }
            position = end;
        } else {
            writeEscaped(text, 0);
        }
        append('"');
    }

    /** {@code text} from {@code from} on, escaping as it goes. */
    private void writeEscaped(String text, int from) {
        int length = text.length();
        int run = from;
        for (int i = from; i < length; i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\' || c < 0x20) {
                appendRange(text, run, i);
                if (c < 0x20) {
                    append('\\');
                    append('u');
                    append('0');
                    append('0');
                    append(HEX[c >> 4]);
                    append(HEX[c & 0xF]);
                } else {
                    append('\\');
                    append(c);
                }
                run = i + 1;
            }
        }
        appendRange(text, run, length);
    }

    private void appendRange(String text, int from, int to) {
        while (from < to) {
            if (position == capacity) {
                flush();
            }
            int count = Math.min(to - from, capacity - position);
            text.getChars(from, from + count, buffer, position);
            position += count;
            from += count;
        }
    }

    private void appendAscii(String text) {
        appendRange(text, 0, text.length());
    }

    private void append(char c) {
        if (position == capacity) {
            flush();
        }
        buffer[position++] = c;
    }

    /** Makes room: hands the buffer to the output. */
    private void flush() {
        if (position > 0) {
            output.write(buffer, position);
            position = 0;
        }
    }

    /**
     * Text, kept one byte per character while every character is Latin-1 (a verdict's almost
     * always is), so the String at the end is a copy rather than a compression of a char array
     * twice its size; past the first wider character, a StringBuilder.
     */
    private static final class Text implements Output {
        private byte[] latin1 = new byte[CAPACITY * 8];
        private int length;
        private StringBuilder wide;

        @Override
        public void write(char[] chars, int count) {
            if (wide != null) {
                wide.append(chars, 0, count);
                return;
            }
            if (latin1.length - length < count) {
                latin1 = Arrays.copyOf(latin1, Math.max(latin1.length * 2, length + count));
            }
            byte[] bytes = latin1;
            int at = length;
            for (int i = 0; i < count; i++) {
                char c = chars[i];
                if (c > 0xFF) {
                    length = at;
                    wide = new StringBuilder(length + count * 2).append(text());
                    wide.append(chars, i, count - i);
                    latin1 = null;
                    return;
                }
                bytes[at++] = (byte) c;
            }
            length = at;
        }

        String text() {
            return wide != null ? wide.toString() : new String(latin1, 0, length, StandardCharsets.ISO_8859_1);
        }
    }

    /**
     * UTF-8 into a digest, chunk by chunk. A surrogate pair split across two chunks is carried over;
     * an unpaired surrogate becomes {@code '?'}, as {@code String.getBytes(UTF_8)} makes it.
     */
    private static final class Utf8Digest implements Output {
        private final MessageDigest digest;
        private final byte[] bytes = new byte[CAPACITY * 3 + 4];
        private char pendingHigh;

        Utf8Digest(MessageDigest digest) {
            this.digest = digest;
        }

        @Override
        public void write(char[] chars, int length) {
            int out = 0;
            int i = 0;
            if (pendingHigh != 0) {
                char high = pendingHigh;
                pendingHigh = 0;
                if (Character.isLowSurrogate(chars[0])) {
                    out = pair(high, chars[0], out);
                    i = 1;
                } else {
                    bytes[out++] = '?';
                }
            }
            for (; i < length; i++) {
                char c = chars[i];
                if (c < 0x80) {
                    bytes[out++] = (byte) c;
                } else if (c < 0x800) {
                    bytes[out++] = (byte) (0xC0 | (c >> 6));
                    bytes[out++] = (byte) (0x80 | (c & 0x3F));
                } else if (Character.isHighSurrogate(c)) {
                    if (i + 1 == length) {
                        pendingHigh = c;
                    } else if (Character.isLowSurrogate(chars[i + 1])) {
                        out = pair(c, chars[++i], out);
                    } else {
                        bytes[out++] = '?';
                    }
                } else if (Character.isLowSurrogate(c)) {
                    bytes[out++] = '?';
                } else {
                    bytes[out++] = (byte) (0xE0 | (c >> 12));
                    bytes[out++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                    bytes[out++] = (byte) (0x80 | (c & 0x3F));
                }
            }
            digest.update(bytes, 0, out);
        }

        @Override
        public void finish() {
            if (pendingHigh != 0) {
                pendingHigh = 0;
                digest.update((byte) '?');
            }
        }

        private int pair(char high, char low, int out) {
            int codePoint = Character.toCodePoint(high, low);
            bytes[out++] = (byte) (0xF0 | (codePoint >> 18));
            bytes[out++] = (byte) (0x80 | ((codePoint >> 12) & 0x3F));
            bytes[out++] = (byte) (0x80 | ((codePoint >> 6) & 0x3F));
            bytes[out++] = (byte) (0x80 | (codePoint & 0x3F));
            return out;
        }
    }
}
