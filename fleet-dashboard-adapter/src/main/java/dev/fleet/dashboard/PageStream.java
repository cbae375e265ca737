package dev.fleet.dashboard;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import java.io.IOException;
import java.util.Objects;

/**
 * One open page's event stream, written without ever blocking the thread that sends: the servlet's
 * non-blocking output. An event that cannot go out at once waits as {@code pending}; a newer verdict
 * replaces a pending one (each event carries the whole verdict, so a page that fell behind still
 * ends up showing the fleet as it is), and a keep-alive never replaces a verdict. A failed write
 * closes the stream, and {@link VerdictStream} forgets it.
 */
final class PageStream implements WriteListener {

    private final AsyncContext async;
    private final ServletOutputStream out;
    private final Runnable onClosed;
    private byte[] pending;
    private boolean closed;
    /**
     * Whether the output is non-blocking yet: until {@link #open} sets its listener, a servlet's output blocks, and
     * a verdict sent to a page that {@link VerdictStream} already lists but has not opened would be written by the
     * sending thread (the watcher's), stalling every page behind a client that never reads. Until then it waits.
     */
    private boolean listening;

    /**
     * @param first the event a new page gets at once (the current verdict), or null when none is known yet
     * @param onClosed told once when the stream ends, however it ends
     */
    PageStream(AsyncContext async, byte[] first, Runnable onClosed) throws IOException {
        this.async = Objects.requireNonNull(async, "async");
        this.out = async.getResponse().getOutputStream();
        this.onClosed = Objects.requireNonNull(onClosed, "onClosed");
        this.pending = first;
    }

    /** Starts the non-blocking output; the container then calls {@link #onWritePossible}. */
    synchronized void open() {
        out.setWriteListener(this);
        listening = true;
    }

    /** Queues {@code event} and writes what can be written now. */
    synchronized void send(byte[] event, boolean replacesPending) {
        if (closed) {
            return;
        }
        if (pending == null || replacesPending) {
            pending = event;
        }
        if (listening) {
            drain();
        }
    }

    @Override
    public synchronized void onWritePossible() {
        drain();
    }

    @Override
    public void onError(Throwable failure) {
        close();
    }

    /** Ends the stream (the page has gone, or the dashboard stops). */
    void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            pending = null;
        }
        try {
            async.complete();
        } catch (RuntimeException alreadyDone) {
            // the container ended it first: nothing left to release
        }
        onClosed.run();
    }

    private void drain() {
        try {
            while (pending != null && out.isReady()) {
                byte[] event = pending;
                pending = null;
                out.write(event);
                if (out.isReady()) {
                    out.flush();
                }
            }
        } catch (IOException | IllegalStateException gone) {
            close(); // a closed page: the write fails, or the response is already over
        }
    }
}
