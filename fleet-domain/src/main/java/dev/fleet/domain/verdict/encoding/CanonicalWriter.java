package dev.fleet.domain.verdict.encoding;

import dev.fleet.domain.Timestamps;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The canonical encoding ({@link CanonicalJson}), written value by value as UTF-8 bytes by parts
 * that each do one thing: {@link Separators} place the commas, {@link JsonStrings} escape strings,
 * {@link Utf8Buffer} holds the bytes, and a {@link DigestTap} takes the digest. What is done with
 * the bytes is chosen when the writer is made: kept as text ({@link #forText}), or handed to the
 * digest as they come ({@link #forDigest}). The text and the digest are two walks of one document
 * through the same code, so they agree by construction.
 */
public final class CanonicalWriter implements DocumentSink {

    private static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TRUE = "true".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FALSE = "false".getBytes(StandardCharsets.US_ASCII);
    /** The longest decimal long, {@code -9223372036854775808}. */
    private static final int LONGEST_NUMBER = 20;
    private static final int CHUNK = 1 << 16;

    private final Utf8Buffer out;
    /** Null: the digest is not taken here, but given ({@link #digest(FieldName, String)}). */
    private final DigestTap tap;
    private final JsonStrings strings;
    private final Separators separators = new Separators();
    private final Timestamps.Writer instants = new Timestamps.Writer();
    private String digest;
    /** Where each repeatable value was written, by key: the offsets where it starts and ends (exclusive). */
    private final Map<Object, int[]> repeatables = new IdentityHashMap<>();

    private CanonicalWriter(Utf8Buffer out, DigestTap tap) {
        this.tap = tap;
        this.out = out;
        this.strings = new JsonStrings(out, tap == null ? position -> { } : tap::replaceSurrogate);
    }

    /** Into a String: see {@link #text()}. */
    public static CanonicalWriter forText() {
        return forText(CHUNK);
    }

    /**
     * Into a String, its buffer sized for {@code expectedBytes} at first: a large document's text then
     * grows once or not at all, rather than doubling from 64 KB through a dozen copies of ever larger
     * (for the collector, humongous) arrays.
     */
    public static CanonicalWriter forText(int expectedBytes) {
        return new CanonicalWriter(new Utf8Buffer(Math.max(CHUNK, expectedBytes), null), null);
    }

    /** Into the digest alone, in 64 KB chunks: nothing is kept, and {@link #text()} is not available. */
    public static CanonicalWriter forDigest() {
        DigestTap tap = new DigestTap();
        return new CanonicalWriter(new Utf8Buffer(CHUNK, tap::take), tap);
    }

    /** The text written, for a writer made by {@link #forText}. */
    public String text() {
        return out.text();
    }

    /** The digest written at {@link #digest(FieldName, String)}: taken here, or the one given; null before. */
    public String digest() {
        return digest;
    }

    @Override
    public void digest(FieldName name, String known) {
        digest = tap == null ? known : tap.digestOf(out.bytes, out.position);
        name(name);
        string(digest);
    }

    /**
     * The first time, writes the value and notes where; after that, while every byte is kept (as text),
     * copies those bytes rather than encoding the value again.
     */
    @Override
    public void repeatable(Object key, Consumer<DocumentSink> write) {
        int[] range = repeatables.get(key);
        if (range == null || !out.keepsAll()) {
            int from = out.position;
            write.accept(this);
            if (out.keepsAll()) {
                repeatables.put(key, new int[] {from, out.position});
            }
            return;
        }
        beforeValue();
        out.repeat(range[0], range[1]);
    }

    @Override
    public void beginUndigested() {
        if (tap != null) {
            tap.beginSkip(out.position);
        }
    }

    @Override
    public void endUndigested() {
        if (tap != null) {
            tap.endSkip(out.position);
        }
    }

    @Override
    public void beginObject() {
        open('{');
    }

    @Override
    public void endObject() {
        close('}');
    }

    @Override
    public void beginArray() {
        open('[');
    }

    @Override
    public void endArray() {
        close(']');
    }

    /** Opens an object or an array: its bracket, as a value of the enclosing one. */
    private void open(char bracket) {
        beforeValue();
        out.put((byte) bracket);
        separators.open();
    }

    private void close(char bracket) {
        separators.close();
        out.put((byte) bracket);
    }

    @Override
    public void name(FieldName name) {
        byte[] encoded = name.encoded;
        out.ensure(encoded.length + 1);
        if (separators.commaBeforeName()) {
            out.bytes[out.position++] = ',';
        }
        System.arraycopy(encoded, 0, out.bytes, out.position, encoded.length);
        out.position += encoded.length;
    }

    /** A name not known in advance (a tree's key). */
    void name(String name) {
        if (separators.commaBeforeName()) {
            out.put((byte) ',');
        }
        strings.write(name);
        out.put((byte) ':');
    }

    @Override
    public void string(String value) {
        beforeValue();
        if (value == null) {
            out.put(NULL);
        } else {
            strings.write(value);
        }
    }

    @Override
    public void number(int value) {
        number((long) value);
    }

    @Override
    public void number(long value) {
        beforeValue();
        writeNumber(value);
    }

    @Override
    public void bool(Boolean value) {
        beforeValue();
        out.put(value == null ? NULL : value ? TRUE : FALSE);
    }

    @Override
    public void instant(Instant value) {
        // The written form is digits and punctuation only: nothing to escape.
        beforeValue();
        if (value == null) {
            out.put(NULL);
            return;
        }
        out.ensure(Timestamps.WRITTEN_LENGTH + 2);
        out.bytes[out.position] = '"';
        if (instants.formatInto(value, out.bytes, out.position + 1)) {
            out.position += Timestamps.WRITTEN_LENGTH + 1;
            out.bytes[out.position++] = '"';
        } else {
            out.position++;
            out.put(Timestamps.format(value).getBytes(StandardCharsets.US_ASCII));
            out.put((byte) '"');
        }
    }

    @Override
    public void nullValue() {
        beforeValue();
        out.put(NULL);
    }

    private void beforeValue() {
        if (separators.commaBeforeValue()) {
            out.put((byte) ',');
        }
    }

    /** {@code Long.toString(value)}, written in place. */
    private void writeNumber(long value) {
        out.ensure(LONGEST_NUMBER);
        if (value == Long.MIN_VALUE) {
            out.put(Long.toString(value).getBytes(StandardCharsets.US_ASCII));
            return;
        }
        byte[] bytes = out.bytes;
        if (value < 0) {
            bytes[out.position++] = '-';
            value = -value;
        }
        int digits = 1;
        for (long rest = value / 10; rest > 0; rest /= 10) {
            digits++;
        }
        int at = out.position + digits;
        out.position = at;
        do {
            bytes[--at] = (byte) ('0' + value % 10);
            value /= 10;
        } while (value > 0);
    }
}
