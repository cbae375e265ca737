package dev.fleet.observer;

/** Reads fields from the text of {@code /proc/<pid>/stat} and {@code /proc/stat}. */
final class ProcStat {

    /** Field 22 ({@code starttime}) is the 20th field after {@code comm}, which ends field 2. */
    private static final int START_TIME_AFTER_COMM = 22 - 2;
    /** Field 4 ({@code ppid}) is the 2nd field after {@code comm}. */
    private static final int PPID_AFTER_COMM = 4 - 2;
    /** Field 5 ({@code pgrp}) is the 3rd field after {@code comm}. */
    private static final int PGRP_AFTER_COMM = 5 - 2;
    /** Field 6 ({@code session}) is the 4th field after {@code comm}. */
    private static final int SESSION_AFTER_COMM = 6 - 2;
    /** Field 9 ({@code flags}) is the 7th field after {@code comm}. */
    private static final int FLAGS_AFTER_COMM = 9 - 2;
    /** include/linux/sched.h: the process is a kernel thread. */
    private static final long PF_KTHREAD = 0x00200000;

    private ProcStat() {
    }

    /**
     * The process start in clock ticks since boot, or -1 when the line cannot be parsed. Field 2
     * ({@code comm}) is in parentheses and may itself hold spaces and parentheses, so fields are
     * counted from the last ')'.
     */
    static long startTicks(byte[] stat, int length) {
        return fieldAfterComm(stat, length, START_TIME_AFTER_COMM);
    }

    /** Field 4 ({@code ppid}), the parent's pid, or -1 when the line cannot be parsed. */
    static long parentPid(byte[] stat, int length) {
        return fieldAfterComm(stat, length, PPID_AFTER_COMM);
    }

    /** Field 5 ({@code pgrp}), the process group, or -1 when the line cannot be parsed. */
    static long processGroup(byte[] stat, int length) {
        return fieldAfterComm(stat, length, PGRP_AFTER_COMM);
    }

    /** Field 6 ({@code session}), the session's id, or -1 when the line cannot be parsed. */
    static long session(byte[] stat, int length) {
        return fieldAfterComm(stat, length, SESSION_AFTER_COMM);
    }

    /**
     * Whether field 9 ({@code flags}) has {@code PF_KTHREAD}: a kernel thread, which has no argv, no memory of
     * its own and no open files, so a look need read nothing more of it.
     */
    static boolean isKernelThread(byte[] stat, int length) {
        long flags = fieldAfterComm(stat, length, FLAGS_AFTER_COMM);
        return flags >= 0 && (flags & PF_KTHREAD) != 0;
    }

    /** The numeric field {@code wanted} places after {@code comm}, or -1. */
    private static long fieldAfterComm(byte[] stat, int length, int wanted) {
        int position = lastIndexOf(stat, length, (byte) ')');
        if (position < 0) {
            return -1;
        }
        position++;
        for (int field = 1; field <= wanted; field++) {
            while (position < length && stat[position] == ' ') {
                position++;
            }
            if (position >= length) {
                return -1;
            }
            if (field == wanted) {
                return parseDigits(stat, position, length);
            }
            while (position < length && stat[position] != ' ') {
                position++;
            }
        }
        return -1;
    }

    /**
     * True when field 3 (the state, right after {@code comm}) says the process has died: {@code Z}
     * (zombie, not yet reaped by its parent) or {@code X} (dead). Such a pid holds no server.
     */
    static boolean isDead(byte[] stat, int length) {
        int position = lastIndexOf(stat, length, (byte) ')') + 1;
        if (position <= 0) {
            return false;
        }
        while (position < length && stat[position] == ' ') {
            position++;
        }
        return position < length && (stat[position] == 'Z' || stat[position] == 'X');
    }

    /** The {@code btime} line of {@code /proc/stat}: boot time in whole seconds since the epoch, or -1. */
    static long bootTimeSeconds(byte[] stat, int length) {
        byte[] key = {'b', 't', 'i', 'm', 'e', ' '};
        for (int lineStart = 0; lineStart < length; ) {
            if (startsWith(stat, lineStart, length, key)) {
                return parseDigits(stat, lineStart + key.length, length);
            }
            int newline = indexOf(stat, lineStart, length, (byte) '\n');
            lineStart = newline < 0 ? length : newline + 1;
        }
        return -1;
    }

    /** A non-negative decimal number ending at a space, newline or the end; -1 otherwise. */
    private static long parseDigits(byte[] text, int from, int length) {
        long value = 0;
        int position = from;
        while (position < length && text[position] >= '0' && text[position] <= '9') {
            if (value > (Long.MAX_VALUE - 9) / 10) {
                return -1;
            }
            value = value * 10 + (text[position] - '0');
            position++;
        }
        boolean terminated = position == length || text[position] == ' ' || text[position] == '\n';
        return position > from && terminated ? value : -1;
    }

    /** Whether {@code text[from, length)} begins with {@code prefix}; {@link ProcStatus} reads its keys with it too. */
    static boolean startsWith(byte[] text, int from, int length, byte[] prefix) {
        if (from + prefix.length > length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (text[from + i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    private static int indexOf(byte[] text, int from, int length, byte wanted) {
        for (int i = from; i < length; i++) {
            if (text[i] == wanted) {
                return i;
            }
        }
        return -1;
    }

    private static int lastIndexOf(byte[] text, int length, byte wanted) {
        for (int i = length - 1; i >= 0; i--) {
            if (text[i] == wanted) {
                return i;
            }
        }
        return -1;
    }
}
