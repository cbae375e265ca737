package dev.fleet.observer;

import dev.fleet.domain.SecretMask;
import dev.fleet.domain.verdict.OutsideText;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns the raw bytes of {@code /proc/<pid>/cmdline} into the full command line patterns are matched against,
 * and into the one fleet keeps and shows: the arguments apart, secrets masked ({@link SecretMask#argv}), so a
 * value holding spaces is hidden whole, then capped.
 */
final class CommandLines {

    private CommandLines() {
    }

    /**
     * The arguments as one string, each ended by a NUL but the last (the final terminator dropped).
     * Decoded as UTF-8 (not the JVM's default charset, which is ASCII under a POSIX locale), with
     * malformed bytes replaced rather than failing.
     */
    static String arguments(byte[] raw, int length) {
        int end = length > 0 && raw[length - 1] == 0 ? length - 1 : length;
        return new String(raw, 0, end, StandardCharsets.UTF_8);
    }

    /** {@code arguments} joined by single spaces: what the roster's patterns are matched against. */
    static String joined(String arguments) {
        return arguments.replace('\0', ' ');
    }

    /**
     * {@code arguments} joined by single spaces with their secrets masked, each argument whole, and capped as a verdict
     * caps every text ({@link OutsideText#cap}): what is kept and shown.
     */
    static String shown(String arguments) {
        return OutsideText.cap(SecretMask.argv(apart(arguments)));
    }

    /**
     * {@code arguments} as a list, each argument with its secrets masked as {@link #shown} masks it (a value an
     * argument opens hidden in the next): what {@code fleet host} keeps, to match arguments one by one.
     */
    static List<String> maskedApart(String arguments) {
        return SecretMask.argvApart(apart(arguments));
    }

    /** {@code arguments} split at each NUL. */
    private static List<String> apart(String arguments) {
        List<String> apart = new ArrayList<>();
        int start = 0;
        for (int nul = arguments.indexOf('\0'); nul >= 0; nul = arguments.indexOf('\0', start)) {
            apart.add(arguments.substring(start, nul));
            start = nul + 1;
        }
        apart.add(arguments.substring(start));
        return apart;
    }

    /** The raw bytes joined by single spaces, unmasked, as patterns see them. */
    static String join(byte[] raw, int length) {
        return joined(arguments(raw, length));
    }
}
