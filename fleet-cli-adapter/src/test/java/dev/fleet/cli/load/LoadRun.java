package dev.fleet.cli.load;

import static dev.fleet.cli.load.LoadHelpers.concat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.ServeProcess;
import dev.fleet.cli.testing.TestFleets;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * One run of the load-and-fault suite ({@link LoadAndFaultIT}), as its phases share it: the sizes and
 * bounds, the registry and roster, every process started (the fleet, the victims killed on the way,
 * the servers stopped under a lock, the lock holders), what the suite was doing since when, whether
 * the load runs and a fault is active, and what it found. Every bound is a quiet two-core host's,
 * {@link #scaled} for this one.
 */
final class LoadRun {

    static final ObjectMapper JSON = new ObjectMapper();
    static final int SERVERS = Integer.getInteger("fleet.load.servers", 50);
    static final Duration LOAD = Duration.ofSeconds(Integer.getInteger("fleet.load.seconds", 30));
    static final int ASSESSORS = Integer.getInteger("fleet.load.assessors", 4);
    static final double PATIENCE = Double.parseDouble(System.getProperty("fleet.load.patience", "1"));
    static final int HEARTBEAT_SECONDS = 1;
    /** Longest one tool call may take before its answer counts as lost. */
    static final Duration CALL_LIMIT = Duration.ofSeconds(30);
    /** How long a fault holds the registry: well inside every writer's deadline. */
    static final Duration FAULT_HOLD = Duration.ofSeconds(3);
    static final String COHORT = "load-cohort";
    private static final String CALL_ASSESS = "{\"name\":\"gitea_assess_fleet_inventory\",\"arguments\":{}}";

    final Path dir;
    final Path registry;
    final Path roster;
    /** Where the lock-holding helpers write their stderr, to be quoted when one fails. */
    final Path holderErrors;
    final List<String> jvmOptions;
    /** Measured before the fifty start; every bound is scaled by it (see {@link LoadPace}). */
    LoadPace pace = new LoadPace(Duration.ZERO, Duration.ZERO, PATIENCE);
    final List<ServeProcess> servers = new ArrayList<>();
    final List<ServeProcess> victims = new CopyOnWriteArrayList<>();
    /** Servers told to exit while the registry was locked: their failed stop is allowed (docs/CONTRACT.md). */
    final List<ServeProcess> leftUnderLock = new CopyOnWriteArrayList<>();
    final List<Process> helpers = new CopyOnWriteArrayList<>();
    final AtomicBoolean loadRunning = new AtomicBoolean();
    /** Bumped when a fault starts and when it has settled; odd while a fault is active. */
    final AtomicLong faultEpoch = new AtomicLong();
    final LoadFindings found = new LoadFindings();
    /** What the suite was doing since when, to tell in which phase a server logged a line. */
    final List<Map.Entry<Instant, String>> timeline = new CopyOnWriteArrayList<>();

    /** A run in {@code dir}: a registry that does not exist yet, and a roster of {@link #SERVERS} members. */
    LoadRun(Path dir) {
        this.dir = dir;
        registry = dir.resolve("control_plane.sqlite3");
        holderErrors = dir.resolve("lock-holders.err");
        roster = TestFleets.roster(registry, IntStream.range(0, SERVERS).mapToObj(i -> String.format(Locale.ROOT,
                "{\"namespace\": \"load-%1$02d\", \"profile\": \"load-%1$02d\", \"role\": \"role-%1$02d\"}", i))
                .collect(Collectors.joining(", ")), "load-roster.json");
        jvmOptions = serverJvmOptions();
    }

    void phase(String name) {
        timeline.add(Map.entry(Instant.now(), name));
    }

    String lastPhase() {
        return timeline.get(timeline.size() - 1).getValue();
    }

    ServeProcess startServer(String profile) throws IOException {
        return ServeProcess.startWith(jvmOptions, registry, roster, profile, Map.of("GITEA_MCP_COHORT_ID", COHORT),
                "--heartbeat-seconds", String.valueOf(HEARTBEAT_SECONDS));
    }

    /**
     * Small JVMs, so that fifty fit beside a build: a small heap and stack, C1 only, the serial
     * collector, no perf-data file, and the jar's class-data archive when the package step made one
     * (as the launcher passes it). JVM warnings stay off stderr, which the suite reads.
     */
    private static List<String> serverJvmOptions() {
        List<String> options = new ArrayList<>(List.of("-Xmx48m", "-Xss512k", "-XX:TieredStopAtLevel=1",
                "-XX:CICompilerCount=1", "-XX:+UseSerialGC", "-XX:-UsePerfData", "-Xshare:auto", "-Xlog:disable",
                "-Xlog:all=error:stderr"));
        Path archive = FleetJar.ARCHIVE;
        if (Files.isRegularFile(archive)) {
            options.add("-XX:SharedArchiveFile=" + archive);
        }
        return options;
    }

    static String profile(int i) {
        return String.format(Locale.ROOT, "load-%02d", i);
    }

    /** The last server, which no assessor uses: it answers the suite's own checks between faults. */
    ServeProcess checker() {
        return servers.get(SERVERS - 1);
    }

    static JsonNode verdictFrom(ServeProcess server, int id) throws IOException {
        JsonNode response = server.request(id, "tools/call", CALL_ASSESS);
        JsonNode result = response.get("result");
        if (result == null || result.path("isError").asBoolean(false)) {
            throw new AssertionError("the tool call failed: " + response);
        }
        JsonNode structured = result.get("structuredContent");
        JsonNode text = JSON.readTree(result.path("content").path(0).path("text").asText(""));
        if (!structured.equals(text)) {
            throw new AssertionError("the text and the structured content differ: " + response);
        }
        return structured;
    }

    /** A bound written for a quiet two-core host, for this host now (see {@link LoadPace}). */
    Duration scaled(Duration duration) {
        return pace.scaled(duration);
    }

    void noteSlowness() {
        found.noteSlowness(pace);
    }

    String summary() {
        return found.summary(String.format(Locale.ROOT,
                "%n== load-and-fault figures: %d servers, %d assessors, load %d s, heartbeat %d s, patience %.1f ==%n",
                SERVERS, ASSESSORS, LOAD.toSeconds(), HEARTBEAT_SECONDS, PATIENCE));
    }

    void cleanUp() {
        List<Process> all = new ArrayList<>(helpers);
        concat(servers, leftUnderLock).forEach(server -> all.add(server.process()));
        victims.forEach(victim -> all.add(victim.process()));
        all.forEach(Process::destroyForcibly);
        all.forEach(LoadRun::awaitGone);
        concat(concat(servers, victims), leftUnderLock).forEach(ServeProcess::close);
    }

    /** Up to 10 s for a killed process to be gone; an interrupt is kept for the caller. */
    private static void awaitGone(Process process) {
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static List<ProcessHandle> serversOf(Path registry) {
        return ProcessHandle.allProcesses()
                .filter(process -> process.info().commandLine().orElse("").contains(registry.toString()))
                .toList();
    }
}
