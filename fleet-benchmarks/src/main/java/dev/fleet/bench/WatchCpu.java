package dev.fleet.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
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
 * What watching costs (docs/PERFORMANCE.md, "Watching a fleet"; scripts/perf.sh watch): five idle
 * members started as an MCP client starts them ({@link FleetProcesses}), a {@code fleet watch
 * --interval 1s} beside them, and the controller's client subscribed to {@code fleet://verdict}.
 * After a warm-up, the CPU time (utime + stime from {@code /proc/PID/stat}) each process takes over
 * the window, as a share of one core: the watch; the subscribed controller; and the reviewer, an
 * unsubscribed member, whose share is what any idle member costs.
 *
 * <pre>
 * LAUNCHER WORKDIR [SECONDS [WARMUP_SECONDS]]     (defaults: 60, 15)
 * </pre>
 */
public final class WatchCpu {

    private static final Duration PATIENCE = Duration.ofMinutes(5);

    private WatchCpu() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        if (args.length < 2) {
            System.err.println("usage: LAUNCHER WORKDIR [SECONDS [WARMUP_SECONDS]]");
            System.exit(2);
        }
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 60;
        int warmup = args.length > 3 ? Integer.parseInt(args[3]) : 15;
        try {
            measure(Path.of(args[0]), Path.of(args[1]), seconds, warmup);
        } catch (Exception | Error e) {
            e.printStackTrace();
            System.exit(1); // the SDK client's threads would keep this JVM, and so the servers, alive
        }
        System.exit(0);
    }

    /** An SDK client with room for a loaded host: the figure is CPU time, which a slow start does not change. */
    private static McpSyncClient connect(ServerParameters parameters) {
        McpSyncClient client = McpClient.sync(new StdioClientTransport(parameters,
                        new JacksonMcpJsonMapper(new ObjectMapper())))
                .requestTimeout(PATIENCE)
                .initializationTimeout(PATIENCE)
                .build();
        client.initialize();
        return client;
    }

    static void measure(Path launcher, Path workdir, int seconds, int warmup) throws Exception {
        Scratch scratch = Scratch.in(workdir);
        Map<String, McpSyncClient> clients = new LinkedHashMap<>();
        Process watch = null;
        try {
            List<CompletableFuture<McpSyncClient>> starting = new ArrayList<>();
            for (String profile : FleetProcesses.PROFILES) {
                starting.add(CompletableFuture.supplyAsync(() -> connect(scratch.serve(launcher, profile))));
            }
            for (int i = 0; i < FleetProcesses.PROFILES.size(); i++) {
                clients.put(FleetProcesses.PROFILES.get(i), starting.get(i).join());
            }
            Map<String, Long> pids = scratch.awaitRunningRows(FleetProcesses.PROFILES.size(), PATIENCE);
            watch = new ProcessBuilder(launcher.toString(), "watch", "--interval", "1s", "--format", "jsonl",
                    "--registry", scratch.registry.toString(), "--roster", scratch.roster.toString())
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            clients.get("prgs-controller").subscribeResource(new McpSchema.SubscribeRequest("fleet://verdict"));
            TimeUnit.SECONDS.sleep(warmup); // start-up, the first looks and their compilation are not the steady cost

            Map<String, Long> measured = new LinkedHashMap<>();
            measured.put("fleet watch --interval 1s", watch.pid());
            measured.put("subscribed server (prgs-controller)", pids.get("prgs-controller"));
            measured.put("unsubscribed member (prgs-reviewer)", pids.get("prgs-reviewer"));
            Map<String, Long> before = new LinkedHashMap<>();
            for (Map.Entry<String, Long> process : measured.entrySet()) {
                before.put(process.getKey(), FleetProcesses.cpuTicks(process.getValue()));
            }
            long started = System.nanoTime();
            TimeUnit.SECONDS.sleep(seconds);
            double elapsed = (System.nanoTime() - started) / 1e9;
            Map<String, Double> shares = new LinkedHashMap<>();
            for (Map.Entry<String, Long> process : measured.entrySet()) {
                long ticks = FleetProcesses.cpuTicks(process.getValue()) - before.get(process.getKey());
                double cpuSeconds = ticks / (double) FleetProcesses.USER_HZ;
                shares.put(process.getKey(), cpuSeconds / elapsed * 100);
                System.out.printf(Locale.ROOT, "%-38s %6.2f s CPU over %.0f s = %5.2f %% of one core%n",
                        process.getKey(), cpuSeconds, elapsed, cpuSeconds / elapsed * 100);
            }
            System.out.printf(Locale.ROOT, "the subscription's share (subscribed minus unsubscribed member): %.2f %% "
                    + "of one core%n", shares.get("subscribed server (prgs-controller)")
                    - shares.get("unsubscribed member (prgs-reviewer)"));
        } finally {
            if (watch != null) {
                // SIGTERM, as an operator's Ctrl-C: the watch exits 143.
                new ProcessBuilder("kill", "-TERM", Long.toString(watch.pid())).inheritIO().start().waitFor();
                watch.waitFor(30, TimeUnit.SECONDS);
            }
            clients.values().forEach(FleetProcesses::closeQuietly);
            scratch.delete();
        }
    }
}
