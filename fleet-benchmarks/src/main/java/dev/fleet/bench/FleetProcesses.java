package dev.fleet.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.domain.RegistryRow;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * Whole-process measurements of real {@code fleet} processes, started through the {@code ./fleet}
 * launcher exactly as an MCP client starts them (see docs/PERFORMANCE.md and scripts/perf.sh).
 *
 * <pre>
 * populate REGISTRY N          fill a migrated registry with N synthetic rows (SyntheticFleet)
 * fleet LAUNCHER WORKDIR       five members on a fresh registry: PSS/RSS idle, then warm tool calls
 * start LAUNCHER WORKDIR RUNS  server start to its registered row, on a registry already migrated
 * start5 LAUNCHER WORKDIR RUNS the five members started at once, until all five rows are registered
 * </pre>
 */
public final class FleetProcesses {

    static final List<String> PROFILES =
            List.of("prgs-author", "prgs-reviewer", "prgs-controller", "prgs-merger", "prgs-reconciler");
    static final String TOOL = "gitea_assess_fleet_inventory";

    private FleetProcesses() {
    }

    public static void main(String[] args) throws Exception {
        // The SDK client's INFO lines (every server's stderr, relayed) would bury the figures.
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        switch (args.length == 0 ? "" : args[0]) {
            case "populate" -> populate(Path.of(args[1]), Integer.parseInt(args[2]));
            case "fleet" -> fleet(Path.of(args[1]), Path.of(args[2]), args.length > 3 ? Integer.parseInt(args[3]) : 200);
            case "start" -> start(Path.of(args[1]), Path.of(args[2]), Integer.parseInt(args[3]));
            case "start5" -> startFive(Path.of(args[1]), Path.of(args[2]), Integer.parseInt(args[3]));
            default -> {
                System.err.println("usage: populate REGISTRY N | fleet LAUNCHER WORKDIR [CALLS] | start[5] LAUNCHER WORKDIR RUNS");
                System.exit(2);
            }
        }
        System.exit(0);
    }

    /** N rows of {@link SyntheticFleet#rows}, inserted by column name in one transaction. */
    static void populate(Path registry, int count) throws SQLException {
        List<RegistryRow> rows = SyntheticFleet.rows(count);
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + registry)) {
            connection.setAutoCommit(false);
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO mcp_server_runtimes (runtime_id, "
                    + "namespace, profile, role, remote, org, repo, repository_root, pid, cohort_id, cohort_source, "
                    + "client_provenance, boot_id, process_started_at, startup_head, transport, status, registered_at, "
                    + "last_heartbeat_at, stopped_at, pid_namespace) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")) {
                for (RegistryRow row : rows) {
                    Object[] values = {row.runtimeId(), row.namespace(), row.profile(), row.role(), row.remote(),
                        row.org(), row.repo(), row.repositoryRoot(), row.pid(), row.cohortId(), row.cohortSource(),
                        row.clientProvenance(), row.bootId(), row.processStartedAt(), row.startupHead(),
                        row.transport(), row.status(), row.registeredAt(), row.lastHeartbeatAt(), row.stoppedAt(),
                        row.pidNamespace()};
                    for (int i = 0; i < values.length; i++) {
                        insert.setObject(i + 1, values[i]);
                    }
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            connection.commit();
        }
        System.out.printf("populated %s with %d rows%n", registry, count);
    }

    /** Calls made before the timed ones, so that the figure is a warm call's. */
    static final int WARM_UP_CALLS = 1_000;

    /** Five members at once on a fresh registry (one of them migrates it), idle memory, then warm calls. */
    static void fleet(Path launcher, Path workdir, int calls) throws Exception {
        Scratch scratch = Scratch.in(workdir);
        Map<String, McpSyncClient> clients = new LinkedHashMap<>();
        try {
            List<CompletableFuture<McpSyncClient>> starting = new ArrayList<>();
            for (String profile : PROFILES) {
                starting.add(CompletableFuture.supplyAsync(() -> connect(scratch.serve(launcher, profile))));
            }
            for (int i = 0; i < PROFILES.size(); i++) {
                clients.put(PROFILES.get(i), starting.get(i).join());
            }
            Map<String, Long> pids = scratch.awaitRunningRows(PROFILES.size(), Duration.ofSeconds(60));
            // Idle: let start-up garbage and compilation settle as a server does between calls.
            TimeUnit.SECONDS.sleep(10);
            long totalPss = 0;
            long totalRss = 0;
            for (Map.Entry<String, Long> member : pids.entrySet()) {
                Map<String, Long> memory = smapsRollup(member.getValue());
                totalPss += memory.get("Pss");
                totalRss += memory.get("Rss");
                System.out.printf(Locale.ROOT, "idle %-16s pid %-7d PSS %6.1f MB  RSS %6.1f MB%n", member.getKey(),
                        member.getValue(), memory.get("Pss") / 1024.0, memory.get("Rss") / 1024.0);
            }
            System.out.printf(Locale.ROOT, "idle fleet of five: PSS %.1f MB, RSS %.1f MB%n", totalPss / 1024.0,
                    totalRss / 1024.0);

            McpSyncClient controller = clients.get("prgs-controller");
            McpSchema.CallToolRequest request = new McpSchema.CallToolRequest(TOOL, Map.of());
            McpSchema.CallToolResult first = controller.callTool(request);
            Object satisfied = ((Map<?, ?>) first.structuredContent()).get("mutation_gate_satisfied");
            System.out.println("first answer: mutation_gate_satisfied=" + satisfied);
            // Warm means compiled: the JVM's tiered compilers take some hundreds of calls to finish
            // with the call's path, and until then a call also pays for compiling it.
            for (int i = 0; i < WARM_UP_CALLS; i++) {
                controller.callTool(request);
            }
            long[] nanos = new long[calls];
            long serverTicks = cpuTicks(pids.get("prgs-controller"));
            for (int i = 0; i < calls; i++) {
                long start = System.nanoTime();
                controller.callTool(request);
                nanos[i] = System.nanoTime() - start;
            }
            serverTicks = cpuTicks(pids.get("prgs-controller")) - serverTicks;
            Arrays.sort(nanos);
            System.out.printf(Locale.ROOT, "warm %s through the SDK client (after " + WARM_UP_CALLS + "), %d calls: p50 %.2f ms, p90 %.2f ms, "
                    + "min %.2f ms; the server's CPU time per call %.2f ms%n", TOOL, calls, percentile(nanos, 50),
                    percentile(nanos, 90), nanos[0] / 1e6, serverTicks * 1000.0 / USER_HZ / calls);
        } finally {
            clients.values().forEach(FleetProcesses::closeQuietly);
            scratch.delete();
        }
    }

    /** Start to registered row: a registry already migrated, one server at a time, {@code runs} times. */
    static void start(Path launcher, Path workdir, int runs) throws Exception {
        long[] nanos = timeStarts(launcher, workdir, runs, List.of("prgs-controller"), Duration.ofSeconds(30),
                (run, times) -> System.out.printf(Locale.ROOT, "run %2d: %.0f ms%n", run, times.nanos() / 1e6))[0];
        System.out.printf(Locale.ROOT, "server start to its registered row, %d runs: median %.0f ms, min %.0f ms, "
                + "max %.0f ms%n", runs, percentile(nanos, 50), nanos[0] / 1e6, nanos[runs - 1] / 1e6);
    }

    /**
     * What a client starting the whole fleet meets: the five members started in the same instant,
     * timed until the last of their rows is registered (the gate sees unregistered processes until
     * then). On a registry already migrated; every member leaves (stdin closed) before the next run.
     */
    static void startFive(Path launcher, Path workdir, int runs) throws Exception {
        long[][] times = timeStarts(launcher, workdir, runs, PROFILES, Duration.ofSeconds(60), (run, one) ->
                System.out.printf(Locale.ROOT, "run %2d: %.0f ms, the five's CPU %d ms%n", run, one.nanos() / 1e6,
                        one.cpuMillis()));
        long[] nanos = times[0];
        long[] cpuMillis = times[1];
        System.out.printf(Locale.ROOT, "five members started at once to their five registered rows, %d runs: "
                + "median %.0f ms, min %.0f ms, max %.0f ms; their CPU, median %d ms (%d ms each)%n", runs,
                percentile(nanos, 50), nanos[0] / 1e6, nanos[runs - 1] / 1e6, cpuMillis[runs / 2],
                cpuMillis[runs / 2] / 5);
    }

    /**
     * {@code runs} starts of {@code profiles} together on a scratch registry migrated first, each told
     * to {@code report} as it ends: the wall times and the CPU times, each sorted.
     */
    private static long[][] timeStarts(Path launcher, Path workdir, int runs, List<String> profiles, Duration limit,
            BiConsumer<Integer, StartTimes> report) throws Exception {
        Scratch scratch = Scratch.in(workdir);
        try {
            scratch.migrate(launcher);
            long[] nanos = new long[runs];
            long[] cpuMillis = new long[runs];
            for (int run = 0; run < runs; run++) {
                StartTimes times = startTogether(scratch, launcher, profiles, limit);
                nanos[run] = times.nanos();
                cpuMillis[run] = times.cpuMillis();
                report.accept(run + 1, times);
            }
            Arrays.sort(nanos);
            Arrays.sort(cpuMillis);
            return new long[][] {nanos, cpuMillis};
        } finally {
            scratch.delete();
        }
    }

    /** One start: the wall time until every row was registered, and the CPU the servers took to get there. */
    private record StartTimes(long nanos, long cpuMillis) {
    }

    /**
     * Starts a server for each of {@code profiles} in the same instant, waits until all their rows are
     * registered, then has each leave (stdin closed, as a client leaves) and waits for it to exit.
     */
    private static StartTimes startTogether(Scratch scratch, Path launcher, List<String> profiles, Duration limit)
            throws Exception {
        List<ProcessBuilder> builders = new ArrayList<>();
        for (String profile : profiles) {
            builders.add(scratch.serveCommand(launcher, profile).redirectError(ProcessBuilder.Redirect.DISCARD));
        }
        List<Process> servers = new ArrayList<>();
        long started = System.nanoTime();
        for (ProcessBuilder builder : builders) {
            servers.add(builder.start());
        }
        boolean all = awaitRunningRows(scratch, servers, started, limit.toNanos());
        long nanos = System.nanoTime() - started;
        // The CPU the servers took to get there: steadier than the wall time on a shared host.
        long cpuMillis = 0;
        for (Process server : servers) {
            cpuMillis += cpuTicks(server.pid()) * 1000 / USER_HZ;
        }
        for (Process server : servers) {
            try (OutputStream stdin = server.getOutputStream()) {
                stdin.flush();
            }
        }
        for (Process server : servers) {
            server.waitFor(20, TimeUnit.SECONDS);
        }
        if (!all) {
            throw new IllegalStateException("not every row of " + profiles + " registered within " + limit.toSeconds()
                    + " s");
        }
        return new StartTimes(nanos, cpuMillis);
    }

    private static McpSyncClient connect(ServerParameters parameters) {
        McpSyncClient client = McpClient.sync(new StdioClientTransport(parameters,
                        new JacksonMcpJsonMapper(new ObjectMapper())))
                .requestTimeout(Duration.ofSeconds(30))
                .initializationTimeout(Duration.ofSeconds(60))
                .build();
        client.initialize();
        return client;
    }

    static void closeQuietly(McpSyncClient client) {
        try {
            client.closeGracefully();
        } catch (RuntimeException e) {
            System.err.println("closing a client: " + e.getMessage());
        }
    }

    /** The unit of /proc/PID/stat's times (USER_HZ), 100 on every Linux architecture in use. */
    static final int USER_HZ = 100;

    /** utime + stime of a process, in USER_HZ ticks (fields 14 and 15 of /proc/PID/stat). */
    static long cpuTicks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    /** Pss, Rss (kB) from /proc/PID/smaps_rollup. */
    static Map<String, Long> smapsRollup(long pid) throws IOException {
        Map<String, Long> values = new LinkedHashMap<>();
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/smaps_rollup"))) {
            String[] parts = line.trim().split("\\s+");
            if (parts.length >= 2 && parts[0].endsWith(":") && parts[1].chars().allMatch(Character::isDigit)) {
                values.put(parts[0].substring(0, parts[0].length() - 1), Long.parseLong(parts[1]));
            }
        }
        return values;
    }

    /** Polls the registry until every one of {@code servers} has a running row, or {@code limitNanos} after {@code started}. */
    private static boolean awaitRunningRows(Scratch scratch, List<Process> servers, long started, long limitNanos)
            throws Exception {
        List<Long> pids = servers.stream().map(Process::pid).toList();
        while (!scratch.runningPids().values().containsAll(pids)) {
            if (System.nanoTime() - started >= limitNanos) {
                return false;
            }
            TimeUnit.MILLISECONDS.sleep(2);
        }
        return true;
    }

    static double percentile(long[] sortedNanos, int percent) {
        int index = (int) Math.ceil(percent / 100.0 * sortedNanos.length) - 1;
        return sortedNanos[Math.max(0, Math.min(sortedNanos.length - 1, index))] / 1e6;
    }
}
