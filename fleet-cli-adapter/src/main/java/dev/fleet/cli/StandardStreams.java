package dev.fleet.cli;

import dev.fleet.domain.Failures;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CLI's output printer: the only place in the CLI that opens standard output. Commands print
 * through picocli's writers, which are set from here. ({@code serve} over stdio leaves stdout to
 * the MCP server, which writes protocol bytes only.)
 */
final class StandardStreams {

    private StandardStreams() {
    }

    static Output out() {
        return new Output(new PatientStdout(new FileOutputStream(FileDescriptor.out)));
    }

    /**
     * Whatever {@code System.err} is when a line is printed, not when the verb began: {@code serve}
     * points it at a stderr that never waits for the client (UnblockedStderr), and its last line (a
     * failure after the server started) must not wait either.
     */
    static PrintWriter err() {
        return new PrintWriter(new OutputStream() {
            @Override
            public void write(int b) {
                System.err.write(b);
            }

            @Override
            public void write(byte[] bytes, int offset, int length) {
                System.err.write(bytes, offset, length);
            }

            @Override
            public void flush() {
                System.err.flush();
            }
        }, true, StandardCharsets.UTF_8);
    }

    /**
     * Standard output that remembers why a write failed. A {@link PrintWriter} swallows the
     * {@link IOException} (and {@code checkError} keeps only that there was one), so the verb
     * would exit 0 having printed nothing into a full disk.
     */
    static final class Output extends FilterOutputStream {

        /** The file type bits of {@code st_mode}, and the two types a reader reads through: stat(2). */
        private static final int S_IFMT = 0170000;
        private static final int S_IFIFO = 0010000;
        private static final int S_IFSOCK = 0140000;

        private final PrintWriter writer;
        private volatile IOException failure;

        Output(OutputStream target) {
            super(target);
            this.writer = new PrintWriter(this, true, StandardCharsets.UTF_8);
        }

        PrintWriter writer() {
            return writer;
        }

        /** Whether a write or flush failed, after flushing what is still buffered. */
        boolean failed() {
            writer.flush();
            return failure != null;
        }

        /**
         * Whether a write failed because its reader has gone: standard output is a pipe, a named FIFO or
         * a socket (asked of the descriptor through {@code /proc}, on Linux; elsewhere any failure
         * counts), whose writes fail only so. A file or a device that fails (a full disk,
         * {@code /dev/full}) is no reader gone. Not asked of the error's words, which follow the locale.
         */
        boolean readerGone() {
            if (!failed()) {
                return false;
            }
            try {
                int type = (Integer) Files.getAttribute(Path.of("/proc/self/fd/1"), "unix:mode") & S_IFMT;
                return type == S_IFIFO || type == S_IFSOCK;
            } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
                return !Files.isDirectory(Path.of("/proc/self/fd")); // no /proc: as before, any failure
            }
        }

        /** What the first failure said, in one line, or its type when it said nothing. */
        String failure() {
            IOException first = failure;
            return first == null ? null : Failures.oneLine(first);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            try {
                out.write(bytes, offset, length);
            } catch (IOException e) {
                remember(e);
                throw e;
            }
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void flush() throws IOException {
            try {
                out.flush();
            } catch (IOException e) {
                remember(e);
                throw e;
            }
        }

        private void remember(IOException e) {
            if (failure == null) {
                failure = e;
            }
        }
    }
}
