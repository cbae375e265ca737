package dev.fleet.observer;

import java.nio.charset.StandardCharsets;

/** Turns the raw bytes of {@code /proc/<pid>/cmdline} into the full command line patterns are matched against. */
final class CommandLines {

    private CommandLines() {
    }

    /**
     * The arguments are NUL-terminated; joining them with single spaces means every NUL but the
     * final terminator becomes a space. Decoded as UTF-8 (not the JVM's default charset, which is
     * ASCII under a POSIX locale), with malformed bytes replaced rather than failing.
     */
    static String join(byte[] raw, int length) {
        int end = length > 0 && raw[length - 1] == 0 ? length - 1 : length;
        for (int i = 0; i < end; i++) {
            if (raw[i] == 0) {
                raw[i] = ' ';
            }
        }
        return new String(raw, 0, end, StandardCharsets.UTF_8);
    }
}
