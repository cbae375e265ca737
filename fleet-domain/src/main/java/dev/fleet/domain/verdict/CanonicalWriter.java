package dev.fleet.domain.verdict;

import dev.fleet.domain.Timestamps;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Arrays;

/**
 * The canonical encoding ({@link CanonicalJson}), written value by value as UTF-8 bytes: kept
 * whole for the text, or handed to a {@link MessageDigest} whenever the buffer fills, for
 * {@code verdict_digest}. A large verdict is then never held as a tree, a String and a byte array
 * at once just to be digested, and a verdict that is all ASCII (almost every one) is copied into
 * its String once, byte for byte.
 *
 * <p>The digest's bytes are exactly {@code String.getBytes(UTF_8)} of the text: an unpaired
 * surrogate becomes {@code '?'}. The text keeps it: there it is written as its own three bytes
 * (as UTF-8 would write any other character of its range), and decoded back by {@link #text()}.
 */
final class CanonicalWriter implements DocumentSink {

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TRUE = "true".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FALSE = "false".getBytes(StandardCharsets.US_ASCII);
    /** The longest decimal long, {@code -9223372036854775808}. */
    private static final int LONGEST_NUMBER = 20;
    /** The most bytes one character (of a surrogate pair, half) takes: a backslash, {@code u} and four hex digits. */
    private static final int MOST_BYTES_PER_CHAR = 6;
    private static final int DIGEST_CHUNK = 1 << 16;
    private static final int TEXT_CAPACITY = 1 << 16;
    private static final int PART_CAPACITY = 1 << 10;

    /** Null: everything is kept, for {@link #text()} or {@link #fragment}. */
    private final MessageDigest digest;
    /** Text keeps an unpaired surrogate; the digest takes it as {@code '?'}. */
    private final boolean keepsSurrogates;
    /**
     * Text that is also digested as it stands, but for the ranges marked undigested ({@link
     * #beginUndigested}): the shown document and {@code verdict_digest} from one walk.
     */
    private final boolean tees;
    /** The undigested ranges, as pairs of offsets into the buffer, in order. */
    private int[] undigested;
    private int undigestedLength;
    private String teedDigest;
    private byte[] buffer;
    private int position;
    /** Whether anything but ASCII has been written, and whether an unpaired surrogate has been kept. */
    private boolean wide;
    private boolean keptSurrogate;
    /** A string's characters, copied out of it once. */
    private char[] chars = new char[256];
    /** Per open container: whether nothing has been written in it yet. */
    private boolean[] first = new boolean[16];
    private int depth;
    private boolean afterName;
    private final Timestamps.Writer instants = new Timestamps.Writer();

    private CanonicalWriter(MessageDigest digest, boolean keepsSurrogates, boolean tees, int capacity) {
        this.digest = digest;
        this.keepsSurrogates = keepsSurrogates;
        this.tees = tees;
        this.undigested = tees ? new int[64] : null;
        this.buffer = new byte[capacity];
    }

    private CanonicalWriter(MessageDigest digest, boolean keepsSurrogates, int capacity) {
        this(digest, keepsSurrogates, false, capacity);
    }

    /** Into a String: see {@link #text()}. */
    static CanonicalWriter forText() {
        return new CanonicalWriter(null, true, TEXT_CAPACITY);
    }

    /**
     * Into a String, as {@link #forText()}, that also gives the digest of what it has written so
     * far but for its undigested ranges: see {@link #digestOfWhatPrecedes}. Its buffer is sized for
     * {@code expectedBytes} at first: a large verdict's text then grows once or not at all, rather
     * than doubling from 64 KB through a dozen copies of ever larger (for the collector, humongous)
     * arrays.
     */
    static CanonicalWriter teeing(int expectedBytes) {
        return new CanonicalWriter(null, true, true, Math.max(TEXT_CAPACITY, expectedBytes));
    }

    /** As UTF-8 (exactly the bytes {@code String.getBytes(UTF_8)} gives) into {@code digest}. */
    static CanonicalWriter to(MessageDigest digest) {
        return new CanonicalWriter(digest, false, DIGEST_CHUNK);
    }

    /** A writer for a part of this one's document, encoded as this one encodes, to be copied in by {@link #fragment}. */
    CanonicalWriter part() {
        return new CanonicalWriter(null, keepsSurrogates, tees, PART_CAPACITY);
    }

    /** Whether this writer was made by {@link #teeing} (or is a part of one). */
    boolean tees() {
        return tees;
    }

    /**
     * What follows, until {@link #endUndigested}, is shown but not digested. It must not be the
     * first member of its container (its comma goes with it; the digest keeps the separator of the
     * member before).
     */
    @Override
    public void beginUndigested() {
        if (tees) {
            if (undigestedLength == undigested.length) {
                undigested = Arrays.copyOf(undigested, undigestedLength * 2);
            }
            undigested[undigestedLength++] = position;
        }
    }

    @Override
    public void endUndigested() {
        if (tees) {
            undigested[undigestedLength++] = position;
        }
    }

    /**
     * For a writer that {@link #tees()}: the {@code verdict_digest} of the document written so far
     * (without its undigested ranges, and closed with {@code '}'}). An unpaired surrogate is kept
     * in the text and would be {@code '?'} in the digest: then {@code verdict} is digested apart,
     * as {@link VerdictDigest#of} always does.
     */
    String digestOfWhatPrecedes(Verdict verdict) {
        if (keptSurrogate) {
            teedDigest = VerdictDigest.of(verdict);
            return teedDigest;
        }
        MessageDigest sha256 = VerdictDigest.sha256();
        int from = 0;
        for (int i = 0; i < undigestedLength; i += 2) {
            sha256.update(buffer, from, undigested[i] - from);
            from = undigested[i + 1];
        }
        sha256.update(buffer, from, position - from);
        sha256.update((byte) '}');
        teedDigest = VerdictDigest.text(sha256);
        return teedDigest;
    }

    /** The digest {@link #digestOfWhatPrecedes} gave. */
    String teedDigest() {
        return teedDigest;
    }

    /** Hands what is still buffered to the digest; call once, when the document is complete. */
    void finish() {
        if (digest != null) {
            flush();
        }
    }

    /** The text written, for a writer made by {@link #forText()} or {@link #teeing}. */
    String text() {
        if (!wide) {
            return new String(buffer, 0, position, StandardCharsets.ISO_8859_1);
        }
        return keptSurrogate ? decodeKeepingSurrogates() : new String(buffer, 0, position, StandardCharsets.UTF_8);
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
        byte[] encoded = name.encoded;
        ensure(encoded.length + 1);
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
            appendBytes(NULL);
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
        appendBytes(value == null ? NULL : value ? TRUE : FALSE);
    }

    @Override
    public void instant(Instant value) {
        // The written form is digits and punctuation only: nothing to escape.
        beforeValue();
        if (value == null) {
            appendBytes(NULL);
            return;
        }
        ensure(Timestamps.WRITTEN_LENGTH + 2);
        buffer[position] = '"';
        if (instants.formatInto(value, buffer, position + 1)) {
            position += Timestamps.WRITTEN_LENGTH + 1;
            buffer[position++] = '"';
        } else {
            position++;
            appendBytes(Timestamps.format(value).getBytes(StandardCharsets.US_ASCII));
            append('"');
        }
    }

    @Override
    public void nullValue() {
        beforeValue();
        appendBytes(NULL);
    }

    /** A value written by {@code part} (made by {@link #part()}), copied in as it is. */
    void fragment(CanonicalWriter part) {
        beforeValue();
        wide |= part.wide;
        keptSurrogate |= part.keptSurrogate;
        int length = part.position;
        if (tees) {
            for (int i = 0; i < part.undigestedLength; i++) {
                if (undigestedLength == undigested.length) {
                    undigested = Arrays.copyOf(undigested, undigestedLength * 2);
                }
                undigested[undigestedLength++] = position + part.undigested[i];
            }
        }
        if (digest != null && length > buffer.length) {
            flush();
            digest.update(part.buffer, 0, length);
            return;
        }
        ensure(length);
        System.arraycopy(part.buffer, 0, buffer, position, length);
        position += length;
    }

    /** {@code Long.toString(value)}, written in place. */
    private void writeNumber(long value) {
        ensure(LONGEST_NUMBER);
        if (value == Long.MIN_VALUE) {
            appendBytes(Long.toString(value).getBytes(StandardCharsets.US_ASCII));
            return;
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
            buffer[--at] = (byte) ('0' + value % 10);
            value /= 10;
        } while (value > 0);
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

    /**
     * Quote, backslash and control characters (C0, DEL, C1) escaped, nothing else: as {@link CanonicalJson}
     * defines. Runs of plain ASCII, a verdict's usual string entire, are copied a byte per character.
     */
    private void writeString(String text) {
        int length = text.length();
        if (chars.length < length) {
            chars = new char[Math.max(length, chars.length * 2)];
        }
        char[] source = chars;
        text.getChars(0, length, source, 0);
        ensure(length + 2);
        byte[] out = buffer;
        int at = position;
        out[at++] = '"';
        int i = 0;
        while (true) {
            for (; i < length; i++) {
                char c = source[i];
                if (c >= 0x7f || c < 0x20 || c == '"' || c == '\\') {
                    break;
                }
                out[at++] = (byte) c;
            }
            if (i == length) {
                break;
            }
            position = at;
            i = writeSpecial(source, i, length);
            ensure(length - i + 1);
            out = buffer;
            at = position;
        }
        out[at++] = '"';
        position = at;
    }

    /** The character at {@code i} (two, for a surrogate pair), which is not plain ASCII; returns the index after it. */
    private int writeSpecial(char[] source, int i, int length) {
        ensure(MOST_BYTES_PER_CHAR);
        byte[] out = buffer;
        char c = source[i];
        if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
            // C0, DEL and C1: a terminal obeys them even inside a JSON string (ESC, CSI U+009B).
            out[position++] = '\\';
            out[position++] = 'u';
            out[position++] = '0';
            out[position++] = '0';
            out[position++] = HEX[c >> 4];
            out[position++] = HEX[c & 0xF];
            return i + 1;
        }
        if (c == '"' || c == '\\') {
            out[position++] = '\\';
            out[position++] = (byte) c;
            return i + 1;
        }
        wide = true;
        if (c < 0x800) {
            out[position++] = (byte) (0xC0 | (c >> 6));
            out[position++] = (byte) (0x80 | (c & 0x3F));
            return i + 1;
        }
        if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(source[i + 1])) {
            int codePoint = Character.toCodePoint(c, source[i + 1]);
            out[position++] = (byte) (0xF0 | (codePoint >> 18));
            out[position++] = (byte) (0x80 | ((codePoint >> 12) & 0x3F));
            out[position++] = (byte) (0x80 | ((codePoint >> 6) & 0x3F));
            out[position++] = (byte) (0x80 | (codePoint & 0x3F));
            return i + 2;
        }
        if (Character.isSurrogate(c)) {
            if (!keepsSurrogates) {
                out[position++] = '?';
                return i + 1;
            }
            keptSurrogate = true;
        }
        out[position++] = (byte) (0xE0 | (c >> 12));
        out[position++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        out[position++] = (byte) (0x80 | (c & 0x3F));
        return i + 1;
    }

    /** The text when an unpaired surrogate was kept, which no UTF-8 decoder gives back. */
    private String decodeKeepingSurrogates() {
        byte[] in = buffer;
        char[] out = new char[position];
        int length = 0;
        for (int i = 0; i < position; ) {
            int b = in[i] & 0xFF;
            if (b < 0x80) {
                out[length++] = (char) b;
                i++;
            } else if (b < 0xE0) {
                out[length++] = (char) (((b & 0x1F) << 6) | (in[i + 1] & 0x3F));
                i += 2;
            } else if (b < 0xF0) {
                out[length++] = (char) (((b & 0x0F) << 12) | ((in[i + 1] & 0x3F) << 6) | (in[i + 2] & 0x3F));
                i += 3;
            } else {
                int codePoint = ((b & 0x07) << 18) | ((in[i + 1] & 0x3F) << 12) | ((in[i + 2] & 0x3F) << 6)
                        | (in[i + 3] & 0x3F);
                out[length++] = Character.highSurrogate(codePoint);
                out[length++] = Character.lowSurrogate(codePoint);
                i += 4;
            }
        }
        return new String(out, 0, length);
    }

    private void appendBytes(byte[] bytes) {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buffer, position, bytes.length);
        position += bytes.length;
    }

    private void append(char c) {
        ensure(1);
        buffer[position++] = (byte) c;
    }

    /** Room for {@code count} more bytes: the digest takes what is buffered, or the kept text grows. */
    private void ensure(int count) {
        if (buffer.length - position >= count) {
            return;
        }
        if (digest != null) {
            flush();
            if (buffer.length >= count) {
                return;
            }
        }
        buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, position + count));
    }

    private void flush() {
        digest.update(buffer, 0, position);
        position = 0;
    }
}
