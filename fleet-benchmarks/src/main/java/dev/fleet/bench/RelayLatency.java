package dev.fleet.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * What the relay of {@code fleet serve -- COMMAND} costs (docs/PERFORMANCE.md, "The relay";
 * scripts/perf.sh relay), against the floor under any relay. One MCP server on the Java SDK
 * ({@link RelayChild}) is started three times ({@link RelaySides}): by itself, behind the raw byte relay
 * ({@link RawRelay}: a JVM copying bytes both ways), and wrapped by a member ({@code ./fleet serve
 * --profile prgs-author ... -- java ... RelayChild}); a plain {@code fleet serve} beside them is the
 * memory reference. Every side is spoken to in raw JSON-RPC lines ({@link RawPeer}), so the client
 * costs the same on each, and the sides take turns, the order rotating, so each relay's figure is set
 * against the direct side's of the same turn.
 *
 * <ol>
 *   <li>idle memory: PSS from {@code /proc/PID/smaps_rollup} of the plain member, the wrapping member
 *       and the raw relay once all are registered and idle, and of each child;
 *   <li>latency: {@code CALLS} sequential {@code tools/call echo} per side, after a warm-up: each side's
 *       p50, p90, p99, and each relay's paired differences to the direct side;
 *   <li>throughput: {@code PIPELINED} calls written at once, then every answer read, three times
 *       {@code ROUNDS} rounds per side after 20 untimed: the medians and the rounds' ratios to the direct side;
 *   <li>one large message: a call whose argument is {@code LARGE_MIB} MiB of text, which the child
 *       echoes back, {@code ROUNDS} rounds per side after 3 untimed, timed alike; then the sequential
 *       calls again, no budget: every side's latency while the JVMs work down what those messages left.
 * </ol>
 * After each of the last three, what each process spent a call ({@link ProcessUsage}: CPU time, reads,
 * writes), which says where a difference comes from when the load makes wall times noisy. Issue 52's
 * budgets are printed with {@code within} or {@code OVER} ({@link RelayFigures}).
 *
 * <pre>
 * LAUNCHER WORKDIR [CALLS [PIPELINED [ROUNDS [LARGE_MIB]]]]     (defaults: 2000, 2000, 7, 5)
 * </pre>
 */
public final class RelayLatency {

    private static final Duration REGISTERED_LIMIT = Duration.ofMinutes(3);
    private static final int IDLE_SECONDS = 5;
    /**
     * Enough for every side's per-line code to be compiled before a call is timed (HotSpot's C2 takes a
     * method after some 15,000 invocations; a relay reads two lines a call), as in a member that has
     * served for a while: after 2,000, the timed calls still paid for the member's compilations.
     */
    private static final int WARM_UP_CALLS = 10_000;
    private static final int WARM_UP_LARGE = 3;
    /**
     * Pipelined rounds before the timed ones: the member's code for a read holding many lines is compiled
     * later than a sequential call's, and on two cores its compiler threads took the CPU of the timed
     * rounds after one warm-up round (fleet's median ratio 1.45x; 1.17x once compiled).
     */
    private static final int WARM_UP_PIPELINED = 20;
    /** Timed pipelined rounds per round of the others: a round takes some 30 ms, so one pause of the host decides one. */
    private static final int PIPELINED_ROUNDS_PER_ROUND = 3;

    private RelayLatency() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: LAUNCHER WORKDIR [CALLS [PIPELINED [ROUNDS [LARGE_MIB]]]]");
            System.exit(2);
        }
        int calls = args.length > 2 ? Integer.parseInt(args[2]) : 2_000;
        int pipelined = args.length > 3 ? Integer.parseInt(args[3]) : 2_000;
        int rounds = args.length > 4 ? Integer.parseInt(args[4]) : 7;
        int largeMib = args.length > 5 ? Integer.parseInt(args[5]) : 5;
        int status = 0;
        try {
            measure(Path.of(args[0]), Path.of(args[1]), calls, pipelined, rounds, largeMib);
        } catch (Exception | Error e) {
            e.printStackTrace();
            status = 1;
        }
        System.exit(status);
    }

    static void measure(Path launcher, Path workdir, int calls, int pipelined, int rounds, int largeMib)
            throws Exception {
        Scratch scratch = Scratch.in(workdir);
        List<RawPeer> peers = new ArrayList<>();
        try {
            scratch.migrate(launcher);
            List<String> child = childCommand();
            ProcessBuilder wrapping = scratch.serveCommand(launcher, "prgs-author");
            wrapping.command().add("--");
            wrapping.command().addAll(child);
            RelaySides sides = new RelaySides(start(peers, scratch, "direct child", new ProcessBuilder(child)),
                    start(peers, scratch, "raw relay", new ProcessBuilder(rawRelayCommand(child))),
                    start(peers, scratch, "wrapping member", wrapping));
            RawPeer plain = start(peers, scratch, "plain member", scratch.serveCommand(launcher, "prgs-reviewer"));
            List<CompletableFuture<Void>> handshakes = new ArrayList<>();
            for (RawPeer peer : List.of(sides.direct(), sides.raw(), sides.fleet(), plain)) {
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

            idleMemory("freshly started", plain, sides);
            plain.close();
            peers.remove(plain);

            sameAnswer(sides);
            String large = RelayCalls.text(largeMib * 1024 * 1024);
            System.out.printf(Locale.ROOT, "warm-up: %d sequential calls per side and %d pipelined rounds (the %d calls "
                    + "of %d MiB each come after them, below)%n", WARM_UP_CALLS, WARM_UP_PIPELINED, WARM_UP_LARGE, largeMib);
            RelayCalls.sequential(sides, WARM_UP_CALLS);
            RelayCalls.pipelined(sides, pipelined, WARM_UP_PIPELINED);

            RelayFigures figures = new RelayFigures();
            ProcessUsage cpu = usage(sides);
            figures.sequential(RelayCalls.sequential(sides, calls));
            cpu.report(calls);

            System.out.printf(Locale.ROOT, "%d pipelined calls a round, the order rotating each round:%n", pipelined);
            cpu = usage(sides);
            int pipelinedRounds = rounds * PIPELINED_ROUNDS_PER_ROUND;
            figures.rounds(pipelined + " pipelined calls", RelayCalls.pipelined(sides, pipelined, pipelinedRounds),
                    RelayFigures.PIPELINED_RATIO);
            cpu.report(pipelined * pipelinedRounds);

            System.out.printf(Locale.ROOT, "one call whose argument is %d MiB of text, echoed back, the order rotating "
                    + "each round:%n", largeMib);
            // Large messages last: after them every side's p99, the direct call's too, is milliseconds for
            // a while (the children's heaps and this client's have grown by hundreds of MB), so the calls
            // timed before would measure that, not the relays; the pass after them shows it.
            RelayCalls.large(sides, large, WARM_UP_LARGE);
            cpu = usage(sides);
            figures.rounds("one " + largeMib + " MiB message", RelayCalls.large(sides, large, rounds),
                    RelayFigures.LARGE_RATIO);
            cpu.report(rounds);
            figures.afterLarge(RelayCalls.sequential(sides, calls));
            // The plain member has gone: the pages it shared now count whole to the others, so these
            // figures say how the processes grew, not how the two members compare.
            idleMemory("after the calls", null, sides);
            figures.summary();
        } finally {
            peers.forEach(RawPeer::close);
            scratch.delete();
        }
    }

    /** Every side answers the same call alike: what is measured is the same work. */
    private static void sameAnswer(RelaySides sides) throws IOException {
        String first = null;
        for (int side = 0; side < 3; side++) {
            RawPeer peer = sides.get(side);
            long id = peer.nextId();
            peer.send(RelayCalls.echo(id, "the same call"));
            String answer = peer.awaitAnswer(id).get("result").toString();
            if (first == null) {
                first = answer;
            } else if (!first.equals(answer)) {
                throw new IllegalStateException("the sides answer differently: " + first + " / " + answer);
            }
        }
    }

    private static ProcessUsage usage(RelaySides sides) {
        Map<String, Long> pids = new LinkedHashMap<>();
        pids.put("the wrapping member", sides.fleet().pid());
        pids.put("the member's child", childOf(sides.fleet()));
        pids.put("the raw relay", sides.raw().pid());
        pids.put("the raw relay's child", childOf(sides.raw()));
        pids.put("the direct child", sides.direct().pid());
        return new ProcessUsage(pids);
    }

    /** The child as every side runs it: this JVM's java and class path, the SDK's log lines off. */
    private static List<String> childCommand() {
        return List.of(java(), "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp",
                System.getProperty("java.class.path"), RelayChild.class.getName());
    }

    /** The raw relay around {@code child}, with the heap options the launcher gives {@code fleet serve}. */
    private static List<String> rawRelayCommand(List<String> child) {
        List<String> command = new ArrayList<>(List.of(java(), "-Xms8m", "-XX:MinHeapFreeRatio=10",
                "-XX:MaxHeapFreeRatio=30", "-cp", System.getProperty("java.class.path"), RawRelay.class.getName(), "--"));
        command.addAll(child);
        return command;
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static RawPeer start(List<RawPeer> peers, Scratch scratch, String name, ProcessBuilder builder)
            throws IOException {
        RawPeer peer = RawPeer.start(name, builder, scratch.dir.resolve(name.replace(' ', '-') + ".stderr"));
        peers.add(peer);
        return peer;
    }

    /** A relay's child: its one child process (fleet's setsid and setpriv execute the command in place). */
    private static long childOf(RawPeer member) {
        return member.process.children().findFirst()
                .orElseThrow(() -> new IllegalStateException(member.name + " has no child")).pid();
    }

    /** PSS and RSS of each, after {@link #IDLE_SECONDS} of idleness. */
    private static void idleMemory(String when, RawPeer plain, RelaySides sides) throws Exception {
        TimeUnit.SECONDS.sleep(IDLE_SECONDS);
        System.out.printf(Locale.ROOT, "idle memory, %s, after %d s idle:%n", when, IDLE_SECONDS);
        RawPeer relayed = sides.fleet();
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
        memoryLine("raw relay", sides.raw().pid(), FleetProcesses.smapsRollup(sides.raw().pid()));
        memoryLine("its child", childOf(sides.raw()), FleetProcesses.smapsRollup(childOf(sides.raw())));
        memoryLine("the direct child", sides.direct().pid(), FleetProcesses.smapsRollup(sides.direct().pid()));
    }

    private static void memoryLine(String what, long pid, Map<String, Long> memory) {
        System.out.printf(Locale.ROOT, "  %-18s pid %-7d PSS %6.1f MB (anonymous %6.1f MB)  RSS %6.1f MB%n", what, pid,
                memory.get("Pss") / 1024.0, memory.getOrDefault("Pss_Anon", 0L) / 1024.0, memory.get("Rss") / 1024.0);
    }
}
