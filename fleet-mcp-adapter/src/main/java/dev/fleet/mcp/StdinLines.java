package dev.fleet.mcp;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Standard input as the SDK's stdio transport should see it: whole lines, blank ones dropped, and
 * a signal when it ends. The SDK gives up on the session at the first line it cannot parse, and a
 * stray newline from a client is no reason to leave the fleet. It also only stops reading at EOF
 * without ending the process, so the server learns of the client's departure here; a read error
 * counts as the end too, since such a stdin will never carry another request.
 */
final class StdinLines extends InputStream {

    private final BufferedReader lines;
    private final Runnable onEnd;
    private byte[] line = new byte[0];
    private int position;
    private boolean ended;

    StdinLines(InputStream stdin, Runnable onEnd) {
        this.lines = new BufferedReader(new InputStreamReader(Objects.requireNonNull(stdin, "stdin"),
                StandardCharsets.UTF_8));
        this.onEnd = Objects.requireNonNull(onEnd, "onEnd");
    }

    @Override
    public int read() throws IOException {
        return nextLineIfNeeded() ? line[position++] & 0xff : -1;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, buffer.length);
        if (length == 0) {
            return 0;
        }
        if (!nextLineIfNeeded()) {
            return -1;
        }
        int count = Math.min(length, line.length - position);
        System.arraycopy(line, position, buffer, offset, count);
        position += count;
        return count;
    }

    /** Blocks for the next non-blank line only when the current one is used up; false at the end. */
    private boolean nextLineIfNeeded() throws IOException {
        while (position == line.length) {
            if (ended) {
                return false;
            }
            String next;
            try {
                next = lines.readLine();
            } catch (IOException e) {
                end();
                throw e;
            }
            if (next == null) {
                end();
                return false;
            }
            if (!next.isBlank()) {
                line = (next + "\n").getBytes(StandardCharsets.UTF_8);
                position = 0;
            }
        }
        return true;
    }

    private void end() {
        if (!ended) {
            ended = true;
            onEnd.run();
        }
    }
}
