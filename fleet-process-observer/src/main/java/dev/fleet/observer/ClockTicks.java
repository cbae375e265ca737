package dev.fleet.observer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code sysconf(_SC_CLK_TCK)}, the unit of {@code starttime} in {@code /proc/<pid>/stat}. Java
 * cannot call sysconf, but glibc answers it from the {@code AT_CLKTCK} entry of the auxiliary
 * vector, which the kernel also exposes as {@code /proc/self/auxv}: reading that gives the same
 * number the JDK uses for {@code ProcessHandle.Info.startInstant()}. It is 100 on every mainstream
 * Linux, which is the fallback when auxv cannot be read.
 */
final class ClockTicks {

    static final long LINUX_DEFAULT = 100;

    private static final long AT_NULL = 0;
    private static final long AT_CLKTCK = 17;

    private ClockTicks() {
    }

    static long perSecond(Path procRoot) {
        try {
            return fromAuxv(Files.readAllBytes(procRoot.resolve("self/auxv")), is64Bit());
        } catch (IOException | RuntimeException e) {
            return LINUX_DEFAULT;
        }
    }

    /** Auxv is a list of (type, value) machine words in native byte order, ended by AT_NULL. */
    static long fromAuxv(byte[] auxv, boolean wordsAre64Bit) {
        ByteBuffer words = ByteBuffer.wrap(auxv).order(ByteOrder.nativeOrder());
        int wordSize = wordsAre64Bit ? Long.BYTES : Integer.BYTES;
        while (words.remaining() >= 2 * wordSize) {
            long type = wordsAre64Bit ? words.getLong() : Integer.toUnsignedLong(words.getInt());
            long value = wordsAre64Bit ? words.getLong() : Integer.toUnsignedLong(words.getInt());
            if (type == AT_NULL) {
                break;
            }
            if (type == AT_CLKTCK && value > 0) {
                return value;
            }
        }
        return LINUX_DEFAULT;
    }

    private static boolean is64Bit() {
        return !"32".equals(System.getProperty("sun.arch.data.model"));
    }
}
