package dev.fleet.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A process spoken to in raw JSON-RPC lines over its stdio, as an MCP client speaks to a stdio
 * server, for {@link RelayLatency}. Lines are read on the caller's thread (no hand-over between
 * threads inside a timed call), each read bounded: a watchdog kills a peer that leaves a read
 * waiting longer than {@link #READ_LIMIT}, which ends the read with an error instead of a hang.
 */
final class RawPeer implements AutoCloseable {

    /** The longest a single read may wait, on a loaded host, before the peer is killed. */
    static final Duration READ_LIMIT = Duration.ofSeconds(60);
    /** How long a peer has to exit once its stdin is closed (a wrapping member: 5 s + 2 s, §12). */
    private static final Duration EXIT_LIMIT = Duration.ofSeconds(10);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<RawPeer> WATCHED = new CopyOnWriteArrayList<>();

    static {
        Thread watchdog = new Thread(RawPeer::watch, "raw-peer-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    final String name;
    final Process process;
    private final Path stderr;
    private final OutputStream stdin;
    private final InputStream stdout;
    private final byte[] chunk = new byte[64 * 1024];
    private int position;
    private int limit;
    private byte[] line = new byte[8 * 1024];
    private int lastLength;
    /** When the current read began (System.nanoTime), or 0 when no read waits. */
    private volatile long waitingSince;
    private volatile boolean killedByWatchdog;
    private long nextId = 1;

    private RawPeer(String name, Process process, Path stderr) {
        this.name = name;
        this.process = process;
        this.stderr = stderr;
        this.stdin = process.getOutputStream();
        this.stdout = process.getInputStream();
    }

    /** Starts {@code builder}'s command with its stderr in {@code stderr}. */
    static RawPeer start(String name, ProcessBuilder builder, Path stderr) throws IOException {
        RawPeer peer = new RawPeer(name, builder.redirectError(stderr.toFile()).start(), stderr);
        WATCHED.add(peer);
        return peer;
    }

    long pid() {
        return process.pid();
    }

    /** A fresh request id. */
    long nextId() {
        return nextId++;
    }

    /** MCP's handshake: {@code initialize}, its answer, then {@code notifications/initialized}. */
    JsonNode initialize() throws IOException {
        long id = nextId();
        send(bytes("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"relay-latency\",\"version\":\"1\"}}}"));
        JsonNode answer = awaitAnswer(id);
        send(bytes("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"));
        return answer;
    }

    /** Writes one line and flushes it. */
    void send(byte[] message) throws IOException {
        stdin.write(message);
        stdin.write('\n');
        stdin.flush();
    }

    /** Writes every line, flushing only when the pipe's buffer is full and at the end: "all at once". */
    void sendAll(List<byte[]> messages) throws IOException {
        for (byte[] message : messages) {
            stdin.write(message);
            stdin.write('\n');
        }
        stdin.flush();
    }

    /** Reads lines until the answer to {@code id}; any other line (a notification) is passed over. */
    JsonNode awaitAnswer(long id) throws IOException {
        while (true) {
            JsonNode message = JSON.readTree(line, 0, readLine());
            JsonNode answerId = message.get("id");
            if (answerId != null && answerId.isIntegralNumber() && answerId.longValue() == id && !message.has("method")) {
                if (message.has("error")) {
                    throw new IOException(name + " answered " + id + " with an error: " + message);
                }
                return message;
            }
        }
    }

    /** Reads lines until {@code count} answers have come, whatever their order. */
    void awaitAnswers(int count) throws IOException {
        int answered = 0;
        while (answered < count) {
            JsonNode message = JSON.readTree(line, 0, readLine());
            if (message.has("id") && !message.has("method")) {
                if (message.has("error")) {
                    throw new IOException(name + " answered with an error: " + message);
                }
                answered++;
            }
        }
    }

    /**
     * Reads lines until one of at least {@code minimum} bytes (a large answer), unparsed, so that a timed
     * call does not count the client's parsing; {@link #lastLine()} parses it afterwards.
     */
    void awaitLongLine(int minimum) throws IOException {
        do {
            lastLength = readLine();
        } while (lastLength < minimum);
    }

    /** The line {@link #awaitLongLine} stopped at, parsed. */
    JsonNode lastLine() throws IOException {
        return JSON.readTree(line, 0, lastLength);
    }

    /** The next stdout line's length in {@link #line}, without its newline; bounded by the watchdog. */
    private int readLine() throws IOException {
        int length = 0;
        waitingSince = System.nanoTime();
        try {
            while (true) {
                if (position == limit) {
                    int count = stdout.read(chunk, 0, chunk.length);
                    if (count < 0) {
                        throw new IOException(name + (killedByWatchdog ? " gave no line within " + READ_LIMIT
                                + " and was killed" : " closed its stdout") + "; its stderr: " + tail());
                    }
                    position = 0;
                    limit = count;
                }
                int start = position;
                while (position < limit && chunk[position] != '\n') {
                    position++;
                }
                int count = position - start;
                if (length + count > line.length) {
                    line = Arrays.copyOf(line, Math.max(line.length * 2, length + count));
                }
                System.arraycopy(chunk, start, line, length, count);
                length += count;
                if (position < limit) {
                    position++; // the newline
                    return length;
                }
            }
        } finally {
            waitingSince = 0;
        }
    }

    /** The last lines of the peer's stderr, for an error message. */
    String tail() {
        try {
            List<String> lines = Files.readAllLines(stderr, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    /** Closes stdin (how a client leaves), waits a bounded time, then kills whatever of its tree is left. */
    @Override
    public void close() {
        WATCHED.remove(this);
        List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
        try {
            stdin.close();
        } catch (IOException e) {
            // already gone
        }
        try {
            process.waitFor(EXIT_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        tree.add(process.toHandle());
        tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    private void kill() {
        killedByWatchdog = true;
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    private static void watch() {
        while (true) {
            long now = System.nanoTime();
            for (RawPeer peer : WATCHED) {
                long since = peer.waitingSince;
                if (since != 0 && now - since > READ_LIMIT.toNanos()) {
                    System.err.println(peer.name + ": no line within " + READ_LIMIT + ", killing it");
                    peer.kill();
                }
            }
            try {
                TimeUnit.MILLISECONDS.sleep(500);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
