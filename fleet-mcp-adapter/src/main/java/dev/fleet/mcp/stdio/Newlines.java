package dev.fleet.mcp.stdio;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Finding a line's end eight bytes at a time: a long line is mostly searched, and a message of a
 * few MiB has no newline until its last byte (issue 52). The word trick is the classic "has a zero
 * byte" test on the word XORed with newlines; its lowest flag marks the first newline exactly.
 */
final class Newlines {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long NEWLINES = 0x0A0A0A0A0A0A0A0AL;
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;

    private Newlines() {
    }

    /** The first {@code \n} in {@code buffer[from, to)}, or -1. */
    static int indexOf(byte[] buffer, int from, int to) {
        int i = from;
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            long word = (long) LONGS.get(buffer, i) ^ NEWLINES; // a newline's byte is now zero
            long zeros = (word - ONES) & ~word & HIGHS; // the lowest flag marks the first zero byte exactly
            if (zeros != 0) {
                return i + (Long.numberOfTrailingZeros(zeros) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (buffer[i] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
