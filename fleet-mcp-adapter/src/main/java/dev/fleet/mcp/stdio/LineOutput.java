package dev.fleet.mcp.stdio;

import dev.fleet.mcp.jsonrpc.JsonRpcId;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one way stdio writes lines, whether a plain server answers its client or a relay writes to its
 * client and its child: each message a whole line, written with its newline and flushed under one
 * lock, so that two writers (a plain server's SDK session and its gate; a relay's pump and the
 * member's own answers) never interleave inside a message. Once a write fails (the peer has gone)
 * nothing more is written; that is logged once.
 *
 * <p>It also bounds the answers waiting to be written, for a plain server (the contract: at most
 * {@value #MAX_UNWRITTEN_ANSWERS}). Before the stdin gate hands a request to the SDK it
 * {@link #reserveAnswer reserves} a place, and the {@link #writeAnswer answer} frees it. A client
 * that stops reading stdout fills the pipe, answers block on their way out, no place frees up, and
 * the gate stops reading stdin: the client's writes then block in turn, instead of this server
 * queueing its answers without limit. Nothing is lost: once the client reads, answers flow and stdin
 * is read again. A relay reserves nothing.
 *
 * <p>Each place is reserved under its request's id, so that what is still unanswered when the server
 * stops is answered with an error ({@link #endAnswers}) rather than never: a client that closes stdin
 * right after a request (a script, a one-shot probe) reads one answer for it, never silence.
 */
public final class LineOutput {

    /** The contract: requests handed to the SDK and not yet answered on stdout, at most. */
    public static final int MAX_UNWRITTEN_ANSWERS = 64;

    private static final Logger LOG = LoggerFactory.getLogger(LineOutput.class);
    private static final long STALL_LOG_MILLIS = 5_000;

    private final OutputStream out;
    private final String name;
    private final int maxUnwritten;
    /** Set, under this object's lock, once a write failed: nothing is written again. */
    private boolean broken;

    /** Guards the count below; never this object's monitor, which a blocked write holds. */
    private final Object answers = new Object();
    private int unwritten;
    /** The requests whose places are reserved and whose answers have not begun to be written. */
    private final OwedAnswers owed = new OwedAnswers();
    /** Set once what was still owed has been answered by {@link #endAnswers}: a late answer is not written. */
    private boolean answersEnded;
    /** Set once the stream failed: nothing will be written again, so nothing is worth waiting for. */
    private boolean unbounded;

    /** @param name whose input this is, for the one log line a failure gets ("the client", "the wrapped server") */
    public LineOutput(OutputStream out, String name) {
        this(out, name, MAX_UNWRITTEN_ANSWERS);
    }

    LineOutput(OutputStream out, String name, int maxUnwritten) {
        this.out = Objects.requireNonNull(out, "out");
        this.name = Objects.requireNonNull(name, "name");
        if (maxUnwritten < 1) {
            throw new IllegalArgumentException("maxUnwritten must be positive, got " + maxUnwritten);
        }
        this.maxUnwritten = maxUnwritten;
    }

    /**
     * Writes {@code buffer[0, length)}, which must hold no newline, and a newline, then flushes: one
     * message. False when the peer is gone.
     */
    public synchronized boolean writeLine(byte[] buffer, int length) {
        Objects.checkFromIndexSize(0, length, buffer.length);
        for (int i = 0; i < length; i++) {
            if (buffer[i] == '\n') {
                throw new IllegalArgumentException("a protocol line must not contain a line break");
            }
        }
        return passLine(buffer, length) && flush();
    }

    /**
     * Writes a line as {@link BoundedLines} read it (so it holds no newline) and a newline, to be
     * flushed with the lines after it: a relay's pump passing on what one read brought flushes once
     * that read is drained ({@link BoundedLines.Sink#drained}), so a burst of lines costs the peer a
     * few reads, not one a line (the stream should buffer). False when the peer is gone.
     */
    public synchronized boolean passLine(byte[] buffer, int length) {
        if (broken) {
            return false;
        }
        try {
            out.write(buffer, 0, length);
            out.write('\n');
            return true;
        } catch (IOException e) {
            return failed(e);
        }
    }

    /** Sends what was written; false when the peer is gone. */
    public synchronized boolean flush() {
        if (broken) {
            return false;
        }
        try {
            out.flush();
            return true;
        } catch (IOException e) {
            return failed(e);
        }
    }

    private boolean failed(IOException e) {
        broken = true;
        LOG.info("{} no longer reads its input ({}): nothing more is written to it", name, e.getMessage());
        stopBounding();
        return false;
    }

    /** {@link #writeLine(byte[], int)} of the whole array. */
    public boolean writeLine(byte[] line) {
        return writeLine(line, line.length);
    }

    /**
     * Takes a place for one answer, first waiting while {@code maxUnwritten} answers are still
     * unwritten (the client is not reading). Called by the one stdin thread before it hands a
     * request to the SDK, so while this waits, stdin is not read. The wait has no deadline by
     * design: a client may read late, and SIGTERM or a broken stdout still end it.
     *
     * @param id the request's id, one MCP allows: its answer, or {@link #endAnswers}, frees the place
     */
    void reserveAnswer(JsonRpcId id) {
        if (!id.legal()) {
            throw new IllegalArgumentException("an answer is reserved under a request's id, got " + id.json());
        }
        synchronized (answers) {
            long waitedMillis = 0;
            boolean interrupted = false;
            while (unwritten >= maxUnwritten && !unbounded) {
                try {
                    answers.wait(STALL_LOG_MILLIS);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
                waitedMillis += STALL_LOG_MILLIS;
                if (waitedMillis == STALL_LOG_MILLIS && unwritten >= maxUnwritten) {
                    LOG.warn("{} answers wait for the client to read stdout: not reading stdin until it does",
                            unwritten);
                }
            }
            unwritten++;
            owed.owe(id);
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Writes the answer to the request under {@code id} that {@link #reserveAnswer} made room for, then
     * frees its place (whether or not the peer still reads). An answer nothing reserved frees nothing; one
     * that comes after {@link #endAnswers} answered its request is not written (each request is answered once).
     */
    boolean writeAnswer(JsonRpcId id, byte[] line) {
        boolean reserved;
        synchronized (answers) {
            if (answersEnded) {
                LOG.debug("an answer came after the server stopped answering: not written");
                return false;
            }
            reserved = owed.pay(id);
        }
        try {
            return writeLine(line);
        } finally {
            if (reserved) {
                synchronized (answers) {
                    unwritten--;
                    answers.notifyAll();
                }
            }
        }
    }

    /**
     * Waits until every answer a place was {@link #reserveAnswer reserved} for is written, or until
     * {@code deadline} ({@link System#nanoTime}), or until the stream fails: a server ending on stdin EOF
     * answers what it was asked before it exits (the contract: each pipelined request is answered once).
     */
    void awaitAnswersWritten(long deadline) {
        synchronized (answers) {
            long left;
            while (unwritten > 0 && !unbounded && (left = deadline - System.nanoTime()) > 0) {
                try {
                    answers.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /**
     * The server stops: each request still owed an answer gets {@code refusal} of its id instead, and an
     * answer that comes later is not written. The refusals are written on a thread of their own, waited for
     * until {@code deadline} ({@link System#nanoTime}) at most: a client that no longer reads stdout must not
     * hold the exit up.
     */
    void endAnswers(Function<JsonRpcId, byte[]> refusal, long deadline) {
        List<JsonRpcId> unanswered;
        synchronized (answers) {
            answersEnded = true;
            unanswered = owed.takeAll();
        }
        if (unanswered.isEmpty()) {
            return;
        }
        LOG.info("{} requests not answered before the stop: each is answered with an error", unanswered.size());
        Thread writing = new Thread(() -> unanswered.forEach(id -> writeLine(refusal.apply(id))),
                "fleet-stdio-unanswered");
        writing.setDaemon(true); // the exit does not wait for a write the client does not read
        writing.start();
        try {
            TimeUnit.NANOSECONDS.timedJoin(writing, Math.max(1, deadline - System.nanoTime()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Closes the stream (a child's stdin: how a server is told its client has gone). */
    public synchronized void close() {
        broken = true;
        stopBounding();
        try {
            out.close();
        } catch (IOException e) {
            LOG.debug("closing {}'s input: {}", name, e.toString());
        }
    }

    /** The stream failed: let stdin be read on, so its end (the client has gone) is seen. */
    private void stopBounding() {
        synchronized (answers) {
            unbounded = true;
            answers.notifyAll();
        }
    }
}
