package dev.fleet.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * What the relay of {@code fleet serve -- COMMAND} costs (docs/PERFORMANCE.md, "The relay";
 * scripts/perf.sh relay). One MCP server on the Java SDK ({@link RelayChild}) is started twice: by
 * itself, and wrapped by a member ({@code ./fleet serve --profile prgs-author ... -- java ...
 * RelayChild}); a plain {@code fleet serve} beside them is the memory reference. Both sides are
 * spoken to in raw JSON-RPC lines ({@link RawPeer}), so the client costs the same on both.
 *
 * <ol>
 *   <li>idle memory: PSS from {@code /proc/PID/smaps_rollup} of the plain member and the wrapping
 *       member once both are registered and idle, and of each child;
 *   <li>latency: {@code CALLS} sequential {@code tools/call echo} per side, in pairs whose first side
 *       alternates, after a warm-up: p50 and p90 of each side and the p50 of the paired differences;
 *   <li>throughput: {@code PIPELINED} calls written at once, then every answer read, {@code ROUNDS}
 *       rounds per side alternating which goes first: the medians and their ratio.
 * </ol>
 * After each of the last two, what each process spent a call ({@link ProcessUsage}: CPU time, reads,
 * writes), which says where a difference comes from when the load makes wall times noisy.
 *
 * <pre>
 * LAUNCHER WORKDIR [CALLS [PIPELINED [ROUNDS]]]     (defaults: 500, 2000, 7)
 * </pre>
 */
public final class RelayLatency {

    private static final Duration REGISTERED_LIMIT = Duration.ofMinutes(3);
    private static final int IDLE_SECONDS = 5;
    private static final int WARM_UP_CALLS = 2_000;

    private RelayLatency() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: LAUNCHER WORKDIR [CALLS [PIPELINED [ROUNDS]]]");
            System.exit(2);
        }
        int calls = args.length > 2 ? Integer.parseInt(args[2]) : 500;
        int pipelined = args.length > 3 ? Integer.parseInt(args[3]) : 2_000;
        int rounds = args.length > 4 ? Integer.parseInt(args[4]) : 7;
        int status = 0;
        try {
            measure(Path.of(args[0]), Path.of(args[1]), calls, pipelined, rounds);
        } catch (Exception | Error e) {
            e.printStackTrace();
            status = 1;
        }
        System.exit(status);
    }

    static void measure(Path launcher, Path workdir, int calls, int pipelined, int rounds) throws Exception {
        Scratch scratch = Scratch.in(workdir);
        List<RawPeer> peers = new ArrayList<>();
        try {
            scratch.migrate(launcher);
            List<String> child = childCommand();
            ProcessBuilder wrapping = scratch.serveCommand(launcher, "prgs-author");
            wrapping.command().add("--");
            wrapping.command().addAll(child);
            RawPeer direct = start(peers, scratch, "direct child", new ProcessBuilder(child));
            RawPeer relayed = start(peers, scratch, "wrapping member", wrapping);
            RawPeer plain = start(peers, scratch, "plain member", scratch.serveCommand(launcher, "prgs-reviewer"));
            List<CompletableFuture<Void>> handshakes = new ArrayList<>();
            for (RawPeer peer : List.of(direct, relayed, plain)) {
                handshakes.add(CompletableFuture.runAsync(() -> {
                    try {
                        peer.initialize();
                    } catch (IOException e) {
                        throw new IllegalStateException(e.getMessage(), e);
                    }
                }));
            }
            handshakes.forEach(CompletableFuture::join);
            Map<String, Long> rows = scratch.awaitRunningRows(2, REGISTERED_LIMIT);
            System.out.println("registered: " + rows);

            idleMemory("freshly started", plain, relayed, direct);
            plain.close();
            peers.remove(plain);

            sameAnswer(direct, relayed);
            System.out.printf(Locale.ROOT, "warm-up: %d sequential calls per side, one pipelined round each%n",
                    WARM_UP_CALLS);
            sequential(direct, relayed, WARM_UP_CALLS);
            pipelinedNanos(direct, pipelined);
            pipelinedNanos(relayed, pipelined);

            ProcessUsage cpu = new ProcessUsage(relayed.pid(), childOf(relayed), direct.pid());
            long[][] latency = sequential(direct, relayed, calls);
            report(calls, latency);
            cpu.report(calls);

            cpu = new ProcessUsage(relayed.pid(), childOf(relayed), direct.pid());
            throughput(direct, relayed, pipelined, rounds);
            cpu.report(pipelined * rounds);
            // The plain member has gone: the pages it shared now count whole to the others, so these
            // figures say how the processes grew, not how the two members compare.
            idleMemory("after the calls", null, relayed, direct);
        } finally {
            peers.forEach(RawPeer::close);
            scratch.delete();
        }
    }

    /** Both sides answer the same call alike: what is measured is the same work. */
    private static void sameAnswer(RawPeer direct, RawPeer relayed) throws IOException {
        long directId = direct.nextId();
        direct.send(echo(directId));
        long relayedId = relayed.nextId();
        relayed.send(echo(relayedId));
        String directAnswer = direct.awaitAnswer(directId).get("result").toString();
        String relayedAnswer = relayed.awaitAnswer(relayedId).get("result").toString()
                .replace("call " + relayedId, "call " + directId);
        if (!directAnswer.equals(relayedAnswer)) {
            throw new IllegalStateException("the two sides answer differently: " + directAnswer + " / " + relayedAnswer);
        }
    }

    /** The child as both sides run it: this JVM's java and class path, the SDK's log lines off. */
    private static List<String> childCommand() {
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp", System.getProperty("java.class.path"),
                RelayChild.class.getName());
    }

    private static RawPeer start(List<RawPeer> peers, Scratch scratch, String name, ProcessBuilder builder)
            throws IOException {
        RawPeer peer = RawPeer.start(name, builder, scratch.dir.resolve(name.replace(' ', '-') + ".stderr"));
        peers.add(peer);
        return peer;
    }

    /** The wrapping member's child: its one child process (setsid executes the command in place). */
    private static long childOf(RawPeer member) {
        return member.process.children().findFirst()
                .orElseThrow(() -> new IllegalStateException(member.name + " has no child")).pid();
    }

    /** PSS and RSS of each, after {@link #IDLE_SECONDS} of idleness. */
    private static void idleMemory(String when, RawPeer plain, RawPeer relayed, RawPeer direct) throws Exception {
        TimeUnit.SECONDS.sleep(IDLE_SECONDS);
        System.out.printf(Locale.ROOT, "idle memory, %s, after %d s idle:%n", when, IDLE_SECONDS);
        Map<String, Long> member = FleetProcesses.smapsRollup(relayed.pid());
        if (plain != null) {
            Map<String, Long> reference = FleetProcesses.smapsRollup(plain.pid());
            memoryLine("plain fleet serve", plain.pid(), reference);
            memoryLine("wrapping member", relayed.pid(), member);
            System.out.printf(Locale.ROOT, "  wrapping member - plain fleet serve: PSS %+.1f MB%n",
                    (member.get("Pss") - reference.get("Pss")) / 1024.0);
        } else {
            memoryLine("wrapping member", relayed.pid(), member);
        }
        memoryLine("its child", childOf(relayed), FleetProcesses.smapsRollup(childOf(relayed)));
        memoryLine("the direct child", direct.pid(), FleetProcesses.smapsRollup(direct.pid()));
    }

    private static void memoryLine(String what, long pid, Map<String, Long> memory) {
        System.out.printf(Locale.ROOT, "  %-18s pid %-7d PSS %6.1f MB (anonymous %6.1f MB)  RSS %6.1f MB%n", what, pid,
                memory.get("Pss") / 1024.0, memory.getOrDefault("Pss_Anon", 0L) / 1024.0, memory.get("Rss") / 1024.0);
    }

    /**
     * {@code calls} sequential echo calls per side, in pairs whose first side alternates: each call's
     * nanoseconds, {direct, relayed}, in call order.
     */
    private static long[][] sequential(RawPeer direct, RawPeer relayed, int calls) throws IOException {
        long[] directNanos = new long[calls];
        long[] relayedNanos = new long[calls];
        for (int i = 0; i < calls; i++) {
            if (i % 2 == 0) {
                directNanos[i] = call(direct);
                relayedNanos[i] = call(relayed);
            } else {
                relayedNanos[i] = call(relayed);
                directNanos[i] = call(direct);
            }
        }
        return new long[][] {directNanos, relayedNanos};
    }

    private static long call(RawPeer peer) throws IOException {
        long id = peer.nextId();
        byte[] line = echo(id);
        long start = System.nanoTime();
        peer.send(line);
        peer.awaitAnswer(id);
        return System.nanoTime() - start;
    }

    private static byte[] echo(long id) {
        return RawPeer.bytes("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"echo\",\"arguments\":{\"text\":\"hello from call " + id + "\"}}}");
    }

    private static void report(int calls, long[][] latency) {
        long[] direct = latency[0].clone();
        long[] relayed = latency[1].clone();
        long[] difference = new long[calls];
        for (int i = 0; i < calls; i++) {
            difference[i] = latency[1][i] - latency[0][i];
        }
        Arrays.sort(direct);
        Arrays.sort(relayed);
        Arrays.sort(difference);
        System.out.printf(Locale.ROOT, "sequential tools/call echo, %d per side, pairs alternating which goes first:%n",
                calls);
        System.out.printf(Locale.ROOT, "  direct:  p50 %.3f ms, p90 %.3f ms, min %.3f ms%n",
                FleetProcesses.percentile(direct, 50), FleetProcesses.percentile(direct, 90), direct[0] / 1e6);
        System.out.printf(Locale.ROOT, "  relayed: p50 %.3f ms, p90 %.3f ms, min %.3f ms%n",
                FleetProcesses.percentile(relayed, 50), FleetProcesses.percentile(relayed, 90), relayed[0] / 1e6);
        System.out.printf(Locale.ROOT, "  relayed - direct, paired: p50 %.3f ms, p90 %.3f ms%n",
                FleetProcesses.percentile(difference, 50), FleetProcesses.percentile(difference, 90));
    }

    /** {@code rounds} rounds of {@code count} pipelined calls per side, the first side alternating. */
    private static void throughput(RawPeer direct, RawPeer relayed, int count, int rounds) throws Exception {
        long[] directNanos = new long[rounds];
        long[] relayedNanos = new long[rounds];
        double[] ratios = new double[rounds];
        for (int round = 0; round < rounds; round++) {
            if (round % 2 == 0) {
                directNanos[round] = pipelinedNanos(direct, count);
                relayedNanos[round] = pipelinedNanos(relayed, count);
            } else {
                relayedNanos[round] = pipelinedNanos(relayed, count);
                directNanos[round] = pipelinedNanos(direct, count);
            }
            ratios[round] = relayedNanos[round] / (double) directNanos[round];
            System.out.printf(Locale.ROOT, "  round %d: direct %.1f ms, relayed %.1f ms, ratio %.2f%n", round + 1,
                    directNanos[round] / 1e6, relayedNanos[round] / 1e6, ratios[round]);
        }
        Arrays.sort(directNanos);
        Arrays.sort(relayedNanos);
        Arrays.sort(ratios);
        double directMedian = FleetProcesses.percentile(directNanos, 50);
        double relayedMedian = FleetProcesses.percentile(relayedNanos, 50);
        System.out.printf(Locale.ROOT, "%d pipelined calls, %d rounds per side: median direct %.1f ms, relayed %.1f ms; "
                + "ratio of medians %.2f, median of the rounds' ratios %.2f%n", count, rounds, directMedian,
                relayedMedian, relayedMedian / directMedian, ratios[rounds / 2]);
    }

    /** Writes {@code count} echo calls at once (from another thread, as the answers fill the pipe back), reads every answer. */
    private static long pipelinedNanos(RawPeer peer, int count) throws Exception {
        List<byte[]> lines = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            lines.add(echo(peer.nextId()));
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
}
