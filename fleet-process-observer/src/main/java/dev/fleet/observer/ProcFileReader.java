package dev.fleet.observer;

import java.io.FileInputStream;
import java.io.IOException;
import java.util.Arrays;

/**
 * Reads whole {@code /proc} files into one reusable buffer: a scan reads a thousand tiny files, and
 * allocating a fresh array (or a {@code Path}) per file would dominate the cost. One instance
 * belongs to one scan; the buffer is overwritten by the next read.
 *
 * <p>Both methods return the length read, or -1 when the file cannot be read: the process has
 * exited (the file is gone, or reading it fails with ESRCH) or access is refused. A scan treats all
 * of these as "not there", never as an error.
 */
final class ProcFileReader {

    private byte[] buffer = new byte[8192];

    /** Reads until end of file, whatever the file. */
    int readToEnd(String path) {
        return read(path, false);
    }

    /**
     * For {@code /proc/<pid>/cmdline} and {@code /proc/<pid>/stat}: the kernel fills a read of these
     * as far as the content goes (cmdline loops over the argument pages; stat is a single record),
     * so a read that does not fill the buffer has reached the end. Skipping the extra read that
     * would return 0 saves a syscall per process, and on cmdline that syscall maps the other
     * process's memory again: about a third of a whole scan.
     */
    int readProcessFile(String path) {
        return read(path, true);
    }

    byte[] buffer() {
        return buffer;
    }

    private int read(String path, boolean shortReadIsEnd) {
        try (FileInputStream in = new FileInputStream(path)) {
            int length = 0;
            while (true) {
                if (length == buffer.length) {
                    buffer = Arrays.copyOf(buffer, buffer.length * 2);
                }
                int wanted = buffer.length - length;
                int count = in.read(buffer, length, wanted);
                if (count < 0) {
                    return length;
                }
                length += count;
                if (shortReadIsEnd && count < wanted) {
                    return length;
                }
            }
        } catch (IOException e) {
            return -1;
        }
    }
}
