package dev.fleet.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The timed calls of {@link RelayLatency}, on the three {@link RelaySides} in turn: every figure is
 * nanoseconds, {@code [side][turn]}, so that a side's figure can be set against the direct side's of
 * the same turn (taken within milliseconds of it, under the same neighbours).
 */
final class RelayCalls {

    private RelayCalls() {
    }

    /** {@code calls} sequential {@code tools/call echo} per side, the three in turn, the order rotating each call. */
    static long[][] sequential(RelaySides sides, int calls) throws IOException {
        long[][] nanos = new long[3][calls];
        for (int i = 0; i < calls; i++) {
            for (int side : RelaySides.order(i)) {
                nanos[side][i] = call(sides.get(side));
            }
        }
        return nanos;
    }

    /** {@code rounds} rounds of {@code count} pipelined calls per side, the order rotating each round. */
    static long[][] pipelined(RelaySides sides, int count, int rounds) throws Exception {
        long[][] nanos = new long[3][rounds];
        for (int round = 0; round < rounds; round++) {
            for (int side : RelaySides.order(round)) {
                nanos[side][round] = pipelinedNanos(sides.get(side), count);
            }
        }
        return nanos;
    }

    /** {@code rounds} rounds of one call per side whose argument, and so its answer, is {@code text}. */
    static long[][] large(RelaySides sides, String text, int rounds) throws IOException {
        long[][] nanos = new long[3][rounds];
        for (int round = 0; round < rounds; round++) {
            for (int side : RelaySides.order(round)) {
                nanos[side][round] = largeNanos(sides.get(side), text);
            }
        }
        return nanos;
    }

    private static long call(RawPeer peer) throws IOException {
        long id = peer.nextId();
        byte[] line = echo(id, "hello from call " + id);
        long start = System.nanoTime();
        peer.send(line);
        peer.awaitAnswer(id);
        return System.nanoTime() - start;
    }

    /** Writes {@code count} echo calls at once (from another thread, as the answers fill the pipe back), reads every answer. */
    static long pipelinedNanos(RawPeer peer, int count) throws Exception {
        List<byte[]> lines = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long id = peer.nextId();
            lines.add(echo(id, "hello from call " + id));
        }
        CompletableFuture<Void> go = new CompletableFuture<>();
        CompletableFuture<Void> written = go.thenRunAsync(() -> {
            try {
                peer.sendAll(lines);
            } catch (IOException e) {
                throw new IllegalStateException(peer.name + ": " + e.getMessage(), e);
            }
        });
        long start = System.nanoTime();
        go.complete(null);
        peer.awaitAnswers(count);
        long nanos = System.nanoTime() - start;
        written.get(RawPeer.READ_LIMIT.toSeconds(), TimeUnit.SECONDS);
        return nanos;
    }

    /**
     * One call carrying {@code text}, from its first byte written to its answer's last byte read; the
     * answer is parsed and checked after the clock stops (the client's parsing is no side's cost).
     */
    static long largeNanos(RawPeer peer, String text) throws IOException {
        long id = peer.nextId();
        byte[] line = echo(id, text);
        long start = System.nanoTime();
        peer.send(line);
        peer.awaitLongLine(text.length());
        long nanos = System.nanoTime() - start;
        JsonNode answer = peer.lastLine();
        JsonNode echoed = answer.path("result").path("content").path(0).path("text");
        if (answer.path("id").asLong() != id || !echoed.isTextual() || echoed.textValue().length() != text.length()) {
            throw new IllegalStateException(peer.name + " did not echo the " + text.length() + " characters of call "
                    + id + ": " + abbreviated(answer.toString()));
        }
        return nanos;
    }

    /** {@code bytes} of ASCII words, no character JSON escapes: a large argument as a tool would get one. */
    static String text(int bytes) {
        String words = "the quick brown fox jumps over the lazy dog ";
        StringBuilder text = new StringBuilder(bytes + words.length());
        while (text.length() < bytes) {
            text.append(words);
        }
        text.setLength(bytes);
        return text.toString();
    }

    static byte[] echo(long id, String text) {
        return ("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"echo\",\"arguments\":{\"text\":\"" + text + "\"}}}").getBytes(StandardCharsets.UTF_8);
    }

    private static String abbreviated(String text) {
        return text.length() <= 300 ? text : text.substring(0, 300) + "...";
    }
}
