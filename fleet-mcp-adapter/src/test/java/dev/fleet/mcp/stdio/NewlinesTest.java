package dev.fleet.mcp.stdio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * The word-at-a-time search finds exactly the first newline a byte-by-byte search finds, wherever
 * the range starts and ends and whatever bytes surround the newline: the bytes next to 0x0A in value
 * (0x09, 0x0B, 0x8A), 0x00, 0x01 and 0xFF are where a borrow in the word trick would mark the wrong byte.
 */
class NewlinesTest {

    private static final byte[] NEAR_A_NEWLINE = {'\n', 0x09, 0x0B, (byte) 0x8A, 0x00, 0x01, (byte) 0xFF, 'a', '"'};

    @Test
    void findsTheFirstNewlineOfAnyRangeAsAByteByByteSearchDoes() {
        qt().withExamples(5000).forAll(bytes(), integers().between(0, 100), integers().between(0, 100))
                .checkAssert((list, a, b) -> {
                    byte[] buffer = toArray(list);
                    int from = Math.min(Math.min(a, b), buffer.length);
                    int to = Math.min(Math.max(a, b), buffer.length);
                    assertEquals(byteByByte(buffer, from, to), Newlines.indexOf(buffer, from, to),
                            () -> list + " in [" + from + ", " + to + ")");
                });
    }

    @Test
    void findsANewlineInEveryPositionOfALongRunWithoutOne() {
        byte[] buffer = new byte[67];
        for (int newline = 0; newline < buffer.length; newline++) {
            Arrays.fill(buffer, (byte) 0x0B);
            buffer[newline] = '\n';
            assertEquals(newline, Newlines.indexOf(buffer, 0, buffer.length));
            assertEquals(-1, Newlines.indexOf(buffer, newline + 1, buffer.length));
        }
    }

    private static Gen<List<Byte>> bytes() {
        Gen<Byte> one = integers().between(0, NEAR_A_NEWLINE.length + 3).map(i -> i < NEAR_A_NEWLINE.length
                ? NEAR_A_NEWLINE[i] : (byte) (i * 37));
        return lists().of(one).ofSizeBetween(0, 100);
    }

    private static byte[] toArray(List<Byte> list) {
        byte[] buffer = new byte[list.size()];
        for (int i = 0; i < buffer.length; i++) {
            buffer[i] = list.get(i);
        }
        return buffer;
    }

    private static int byteByByte(byte[] buffer, int from, int to) {
        for (int i = from; i < to; i++) {
            if (buffer[i] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
