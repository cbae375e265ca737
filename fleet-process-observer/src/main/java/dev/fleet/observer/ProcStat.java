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
    private static final byte[] BTIME = {'b', 't', 'i', 'm', 'e', ' '};
    /** include/linux/sched.h: the process is a kernel thread. */
    private static final long PF_KTHREAD = 0x00200000;
    /** include/linux/sched.h: set on a thread as it begins to exit, before it frees its memory. */
    private static final long PF_EXITING = 0x00000004;

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
     * Whether the thread (or the process's main thread) runs nothing of its program any more: field 3, the
     * state right after {@code comm}, says it died ({@code Z}, a zombie not yet reaped, or {@code X}), or
     * field 9's {@code PF_EXITING} says it has begun to exit. A thread killed while its process frees a large
     * memory stays {@code R} for as long as that takes (a tenth of a second for a JVM's 3 GiB heap), its
     * memory and {@code cmdline} already gone; only the flag tells it from one that runs.
     */
    static boolean isExiting(byte[] stat, int length) {
        int position = lastIndexOf(stat, length, (byte) ')') + 1;
        if (position <= 0) {
            return false;
        }
        while (position < length && stat[position] == ' ') {
            position++;
        }
        if (position < length && (stat[position] == 'Z' || stat[position] == 'X')) {
            return true;
        }
        long flags = fieldAfterComm(stat, length, FLAGS_AFTER_COMM);
        return flags >= 0 && (flags & PF_EXITING) != 0;
    }

    /** The {@code btime} line of {@code /proc/stat}: boot time in whole seconds since the epoch, or -1. */
    static long bootTimeSeconds(byte[] stat, int length) {
        int value = ProcLines.valueAfter(stat, length, BTIME);
        return value < 0 ? -1 : parseDigits(stat, value, length);
    }

    /** A non-negative decimal number ending at a space, newline or the end; -1 otherwise. */
    private static long parseDigits(byte[] text, int from, int length) {
        int end = from;
        while (end < length && text[end] >= '0' && text[end] <= '9') {
            end++;
        }
        boolean terminated = end == length || text[end] == ' ' || text[end] == '\n';
        return terminated ? ProcLines.digits(text, from, end, 10, Integer.MAX_VALUE) : -1;
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
