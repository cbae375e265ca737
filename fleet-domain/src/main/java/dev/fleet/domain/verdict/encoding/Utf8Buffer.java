package dev.fleet.domain.verdict.encoding;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The bytes a {@link CanonicalWriter} has written, as UTF-8: either all kept (grown as needed, for
 * the text), or handed to a {@link Spill} whenever the buffer is full (for a digest alone, which
 * needs no text).
 */
final class Utf8Buffer {

    /** Takes the buffer's first {@code length} bytes before they are overwritten. */
    interface Spill {
        void take(byte[] bytes, int length);
    }

    /** Null: everything is kept. */
    private final Spill spill;
    byte[] bytes;
    int position;
    /** Whether anything but ASCII has been written, and whether an unpaired surrogate was. */
    boolean wide;
    boolean keptSurrogate;

    Utf8Buffer(int capacity, Spill spill) {
        this.bytes = new byte[capacity];
        this.spill = spill;
    }

    /** Room for {@code count} more bytes at {@link #position}. */
    void ensure(int count) {
        room(count, count);
    }

    /**
     * Room for up to {@code wanted} more bytes, and at least {@code least}: a kept buffer grows to
     * {@code wanted}; a spilling one is spilled only when fewer than {@code least} are left, so it
     * is handed on full. Returns the room there is.
     */
    int room(int wanted, int least) {
        int room = bytes.length - position;
        if (room >= wanted) {
            return room;
        }
        if (spill == null) {
            grow(wanted);
        } else if (room < least) {
            spill.take(bytes, position);
            position = 0;
            if (bytes.length < least) {
                grow(least);
            }
        }
        return bytes.length - position;
    }

    /** Whether every byte written is still here (nothing is spilled). */
    boolean keepsAll() {
        return spill == null;
    }

    /** Writes again the bytes written at {@code [from, to)}; only for a buffer that {@link #keepsAll}. */
    void repeat(int from, int to) {
        ensure(to - from);
        System.arraycopy(bytes, from, bytes, position, to - from);
        position += to - from;
    }

    void put(byte b) {
        ensure(1);
        bytes[position++] = b;
    }

    void put(byte[] source) {
        ensure(source.length);
        System.arraycopy(source, 0, bytes, position, source.length);
        position += source.length;
    }

    /** The bytes written as a String (for a kept buffer). */
    String text() {
        if (!wide) {
            return new String(bytes, 0, position, StandardCharsets.ISO_8859_1);
        }
        return keptSurrogate ? decodeKeepingSurrogates() : new String(bytes, 0, position, StandardCharsets.UTF_8);
    }

    private void grow(int count) {
        bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, position + count));
    }

    /**
     * The text when an unpaired surrogate was written (as its own three bytes, as UTF-8 writes any
     * other character of its range), which no UTF-8 decoder gives back.
     */
    private String decodeKeepingSurrogates() {
        byte[] in = bytes;
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
}
