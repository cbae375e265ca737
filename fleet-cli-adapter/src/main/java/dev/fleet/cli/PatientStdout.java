package dev.fleet.cli;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Standard output that waits, as a blocking descriptor does, when the descriptor refuses a write for now. Its
 * open file may be non-blocking: a parent shares it (Node makes its own stdout non-blocking, and a child started
 * with stdio inherited writes to that same open file), and a write to such a pipe while it is full fails with
 * EAGAIN. {@link FileOutputStream} reports that as an {@link IOException} after an unknown part of the bytes went
 * out, so the answer was lost (exit 74) where a blocking stdout would have waited for its reader. Through the
 * descriptor's channel a refused write writes 0 bytes: this waits a little and writes the rest.
 */
final class PatientStdout extends OutputStream {

    /** The longest pause between two tries: a reader that frees room is served within this. */
    private static final long MAX_PAUSE_MILLIS = 50;

    private final FileChannel channel;

    /** @param stdout standard output, as {@link StandardStreams} opens it */
    PatientStdout(FileOutputStream stdout) {
        this.channel = stdout.getChannel();
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    /**
     * Writes every byte, waiting while the descriptor refuses them. The thread's interrupt is held over the
     * writes: a channel that is interrupted closes itself, and with it standard output.
     */
    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        ByteBuffer rest = ByteBuffer.wrap(bytes, offset, length);
        boolean interrupted = Thread.interrupted();
        try {
            long pause = 1;
            while (rest.hasRemaining()) {
                if (channel.write(rest) > 0) {
                    pause = 1;
                    continue;
                }
                try {
                    Thread.sleep(pause);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
                pause = Math.min(pause * 2, MAX_PAUSE_MILLIS);
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
