package dev.fleet.mcp.relay;

import dev.fleet.mcp.stdio.BoundedLines;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The client's lines while the member registers, which may take 30 s behind a registry another tool holds locked
 * (the contract, §12.1: a wrapping member relays nothing before its row is written). They are read all the same, so
 * that the client's end (stdin's EOF) is seen at once and ends the member within its bounds, and held, in order, up
 * to {@value #HELD_BYTES} bytes, each entry counted with its cost (then reading waits); {@link #release} passes them on, and every line after them
 * goes on at once. Lines held make stdin's end wait for them ({@link #awaitHeldLinesPassed}).
 */
final class HeldUntilRegistered implements BoundedLines.Sink {

    /** A line's limit: one whole line of the most a client may send is always held. */
    static final long HELD_BYTES = BoundedLines.MAX_LINE_BYTES;
    /**
     * What each held entry costs beyond its bytes (the entry, its array): counted, so that a flood of empty or
     * one-byte lines is bounded in memory too, not only in payload.
     */
    static final int ENTRY_BYTES = 64;

    private final BoundedLines.Sink relay;
    private final List<Runnable> held = new ArrayList<>();
    private long heldBytes;
    private boolean released;

    HeldUntilRegistered(BoundedLines.Sink relay) {
        this.relay = relay;
    }

    @Override
    public synchronized void line(byte[] buffer, int length) {
        if (roomFor(length + ENTRY_BYTES)) {
            byte[] line = Arrays.copyOf(buffer, length); // the buffer is the reader's, valid only during this call
            held.add(() -> relay.line(line, line.length));
        } else {
            relay.line(buffer, length);
        }
    }

    @Override
    public synchronized void tooLong(int limit) {
        if (roomFor(ENTRY_BYTES)) {
            held.add(() -> relay.tooLong(limit));
        } else {
            relay.tooLong(limit);
        }
    }

    /**
     * Whether an entry of {@code bytes} is to be held, counted as held when it is: false once released. Beyond the
     * bound, waits for the release (one entry is always admitted, so a whole line of the limit is held).
     */
    private boolean roomFor(long bytes) {
        boolean interrupted = false;
        while (!released && !held.isEmpty() && heldBytes + bytes > HELD_BYTES) {
            try {
                wait();
            } catch (InterruptedException e) {
                interrupted = true; // the pump is never interrupted; were it, it waits on, as a blocked read would
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (!released) {
            heldBytes += bytes;
        }
        return !released;
    }

    @Override
    public synchronized void drained() {
        if (released) {
            relay.drained();
        }
    }

    /**
     * At stdin's end: waits while lines are held, until they have gone on. A client that wrote its requests and
     * closed stdin at once still gets every answer, as once registered; one that sent nothing ends the member at once.
     * An end of another kind (a signal, the client's death) does not wait for this.
     */
    synchronized void awaitHeldLinesPassed() {
        boolean interrupted = false;
        while (!released && !held.isEmpty()) {
            try {
                wait();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** The row is written: the held lines go on, in order, then flushed; every later line at once. */
    synchronized void release() {
        try {
            held.forEach(Runnable::run);
            relay.drained();
        } finally {
            // Even when passing one failed (the child gone): the end that follows drops the rest, and no reader waits.
            held.clear();
            heldBytes = 0;
            released = true;
            notifyAll();
        }
    }
}
