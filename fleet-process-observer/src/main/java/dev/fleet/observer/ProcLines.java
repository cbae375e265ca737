package dev.fleet.observer;

/**
 * Reading {@code key value} lines of a {@code /proc} file as bytes, never as text: {@code /proc/stat}'s
 * {@code btime}, {@code status}'s {@code Uid:} and {@code VmRSS:}, {@code fdinfo}'s {@code flags:}.
 */
final class ProcLines {

    private ProcLines() {
    }

    /** Where the value of the first line starting with {@code key} begins, blanks after the key skipped; -1 if none. */
    static int valueAfter(byte[] text, int length, byte[] key) {
        for (int lineStart = 0; lineStart < length; ) {
            if (startsWith(text, lineStart, length, key)) {
                int position = lineStart + key.length;
                while (position < length && (text[position] == ' ' || text[position] == '\t')) {
                    position++;
                }
                return position;
            }
            int position = lineStart;
            while (position < length && text[position] != '\n') {
                position++;
            }
            lineStart = position + 1;
        }
        return -1;
    }

    /**
     * The number in {@code radix} (8 or 10) of at most {@code maxDigits} digits at {@code from}; -1 where
     * there is none, or it would not fit a long.
     */
    static long digits(byte[] text, int from, int length, int radix, int maxDigits) {
        if (from < 0) {
            return -1;
        }
        long value = 0;
        int position = from;
        while (position < length && text[position] >= '0' && text[position] < '0' + radix && position - from < maxDigits) {
            if (value > (Long.MAX_VALUE - radix) / radix) {
                return -1;
            }
            value = value * radix + (text[position] - '0');
            position++;
        }
        return position > from ? value : -1;
    }

    /** Whether {@code text[from, length)} begins with {@code prefix}. */
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
}
