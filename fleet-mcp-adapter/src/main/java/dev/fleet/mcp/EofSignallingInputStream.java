package dev.fleet.mcp;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Standard input that says when it has ended. The SDK's stdio transport only stops reading at EOF;
 * it does not end the process, so the server learns of the client's departure here. A read error
 * counts as the end too: a stdin that cannot be read will never carry another request.
 */
final class EofSignallingInputStream extends FilterInputStream {

    private final Runnable onEnd;
    private final AtomicBoolean signalled = new AtomicBoolean();

    EofSignallingInputStream(InputStream in, Runnable onEnd) {
        super(Objects.requireNonNull(in, "in"));
        this.onEnd = Objects.requireNonNull(onEnd, "onEnd");
    }

    @Override
    public int read() throws IOException {
        try {
            return signalIfEnded(super.read());
        } catch (IOException e) {
            signal();
            throw e;
        }
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        try {
            int count = super.read(buffer, offset, length);
            // A zero-length request may legitimately return 0; only -1 is the end.
            return signalIfEnded(count);
        } catch (IOException e) {
            signal();
            throw e;
        }
    }

    private int signalIfEnded(int result) {
        if (result == -1) {
            signal();
        }
        return result;
    }

    private void signal() {
        if (signalled.compareAndSet(false, true)) {
            onEnd.run();
        }
    }
}
