package dev.fleet.observer;

/**
 * Reads fields from the text of {@code /proc/<pid>/status}: its lines are {@code Name:<TAB>value}. One read of
 * it gives both the owner and the memory, where {@code stat} gives neither and {@code statm} only pages.
 */
final class ProcStatus {

    private static final byte[] UID = {'U', 'i', 'd', ':'};
    private static final byte[] VM_RSS = {'V', 'm', 'R', 'S', 'S', ':'};
    private static final byte[] THREADS = {'T', 'h', 'r', 'e', 'a', 'd', 's', ':'};

    private ProcStatus() {
    }

    /** The real uid (the first of the four numbers on {@code Uid:}), or -1 when the text says none. */
    static int realUid(byte[] status, int length) {
        long uid = firstNumberOf(status, length, UID);
        return uid < 0 || uid > Integer.MAX_VALUE ? -1 : (int) uid;
    }

    /**
     * The resident set size in bytes ({@code VmRSS:}, which the kernel writes in kB), or 0 when the text says
     * none: a kernel thread has no {@code VmRSS} line.
     */
    static long residentBytes(byte[] status, int length) {
        long kilobytes = firstNumberOf(status, length, VM_RSS);
        return kilobytes < 0 || kilobytes > Long.MAX_VALUE / 1024 ? 0 : kilobytes * 1024;
    }

    /** The process's threads ({@code Threads:}), its main thread counted even once it has exited; -1 when unsaid. */
    static long threads(byte[] status, int length) {
        return firstNumberOf(status, length, THREADS);
    }

    /** The first decimal number after {@code key} at a line's start, skipping blanks, or -1. */
    private static long firstNumberOf(byte[] text, int length, byte[] key) {
        return ProcLines.digits(text, ProcLines.valueAfter(text, length, key), length, 10, Integer.MAX_VALUE);
    }
}
