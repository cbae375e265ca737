package dev.fleet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Timestamps;
import dev.fleet.registry.sqlite.SqliteRegistryReader;
import dev.fleet.testing.Patience;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The load-and-fault suite (issue 11, items 5 and 8): real {@code fleet serve} processes from the
 * packaged jar, all started together on a fresh registry, heartbeating every second, with assessors
 * calling {@code gitea_assess_fleet_inventory} in a loop, while faults are injected one after
 * another, in cycles, until the load has run its time:
 *
 * <ol>
 * <li>kill -9 of new servers while they register (their process has the registry open);</li>
 * <li>another writer stopped (SIGSTOP) inside an IMMEDIATE transaction, then resumed;</li>
 * <li>an exclusive lock ({@code locking_mode=EXCLUSIVE}, {@code BEGIN EXCLUSIVE}) held by another process;</li>
 * <li>the registry file (with {@code -wal} and {@code -shm}) deleted under the live servers.</li>
 * </ol>
 *
 * Locks are held {@link #FAULT_HOLD} (well inside the writers' deadlines: 30 s for a heartbeat or
 * a registration, each attempt waiting up to its 5 s busy timeout). What must hold: every server
 * registers on its first attempt; outside a fault every live server always has a running row, and after each fault every live server has a running
 * row with a heartbeat after the fault's end within the settle window; no server ever logs a busy
 * error or a failed registration; every verdict is well formed ({@link VerdictShape}); no assessment
 * outside a fault reports the registry locked; after each fault the CLI sees the whole fleet with the
 * gate satisfied; and, told to (stdin EOF for half, SIGTERM for the other half, all at once), every
 * server marks its row stopped and exits.
 *
 * <p>It asserts what is lost and what is wrong, never how fast a starved host is: before the fifty
 * start, one server's start and stop are timed under whatever else the host runs ({@link LoadPace}),
 * and every bound it checks (the fifty registering, the settle after a fault, a tool call, an exit
 * when all are told at once) is its quiet-host value scaled by that calibration or by the load when
 * the bound is used, whichever is slower. The contract's "exits within 2 s" is tested on one server
 * alone (StdioShutdownTest, LockedRegistryShutdownTest, FleetServersIT), where it means something.
 *
 * <p>Sized by system properties: {@code fleet.load.servers} (50), {@code fleet.load.seconds} (30; a
 * soak is the same suite run longer, see docs/TESTING.md), {@code fleet.load.assessors} (4) and
 * {@code fleet.load.patience} (1.0; multiplies every wait for a machine slower than measured). Every
 * wait is bounded; every process it starts is destroyed in {@code finally}. The figures are printed at the end.
 */
class LoadAndFaultIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int SERVERS = Integer.getInteger("fleet.load.servers", 50);
    private static final Duration LOAD = Duration.ofSeconds(Integer.getInteger("fleet.load.seconds", 30));
    private static final int ASSESSORS = Integer.getInteger("fleet.load.assessors", 4);
    private static final double PATIENCE = Double.parseDouble(System.getProperty("fleet.load.patience", "1"));
    /** Before the fifty start, nothing else in the suite has run: the quiet-host bound of all fifty registering. */
    private static final Duration START_FLOOR = Duration.ofSeconds(240);
    /** Between one assessor's calls: a controller assesses before a mutation, not in a hot loop. */
    private static final Duration ASSESS_PAUSE = Duration.ofMillis(Long.getLong("fleet.load.assessPauseMillis", 500));

    private static final int HEARTBEAT_SECONDS = 1;
    /** How long, after a fault ends, every live server may take to show a fresh running row again. */
    private static final Duration SETTLE = Duration.ofSeconds(15L * HEARTBEAT_SECONDS);
    /** Longest one tool call may take before its answer counts as lost. */
    private static final Duration CALL_LIMIT = Duration.ofSeconds(30);
    /** How long a fault holds the registry: well inside every writer's deadline. */
    private static final Duration FAULT_HOLD = Duration.ofSeconds(3);
    /** Quiet time before each fault, during which the audit must see every row. */
    private static final Duration QUIET = Duration.ofSeconds(2);
    private static final Duration EXIT_LIMIT = Duration.ofSeconds(2);
    private static final int VICTIMS_PER_KILL = 3;
    /** Kill a victim this long after its registry file first showed among its open files. */
    private static final long[] KILL_DELAYS_MILLIS = {0, 300, 1_500};
    private static final String COHORT = "load-cohort";
    private static final String CALL_ASSESS = "{\"name\":\"gitea_assess_fleet_inventory\",\"arguments\":{}}";
    /** slf4j-simple's timestamp at the start of each server log line. */
    private static final DateTimeFormatter LOG_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ");
    /** Lines that mean a writer surfaced a lock: docs/CONTRACT.md says this never happens. */
    private static final List<String> BUSY_MARKERS = List.of("database is locked", "SQLITE_BUSY", "SQLITE_LOCKED");
    /**
     * A registration or heartbeat retries a busy registry for 30 s of wall time (the product's
     * deadline), which a quiet two-core host with fifty writers never needs more than 5 s of. On a
     * host this many times slower than a quiet one, 30 s may be less than those 5 s of work: a write
     * that then gives up, logs it and succeeds at a later heartbeat (as docs/CONTRACT.md allows) has
     * lost nothing, and is counted rather than failed. On a faster host it is a problem.
     */
    private static final double STARVED = 30.0 / 5.0;

    @TempDir
    Path dir;

    private Path registry;
    private Path roster;
    private List<String> jvmOptions;
    /** Measured before the fifty start; every bound below is scaled by it (see {@link LoadPace}). */
    private LoadPace pace = new LoadPace(Duration.ZERO, Duration.ZERO, PATIENCE);
    private final List<ServeProcess> servers = new ArrayList<>();
    private final List<ServeProcess> victims = new CopyOnWriteArrayList<>();
    /** Servers told to exit while the registry was locked: their failed stop is allowed (docs/CONTRACT.md). */
    private final List<ServeProcess> leftUnderLock = new CopyOnWriteArrayList<>();
    private final List<Process> helpers = new CopyOnWriteArrayList<>();
    /** Where the lock-holding helpers write their stderr, to be quoted when one fails. */
    private Path holderErrors;
    private final AtomicBoolean loadRunning = new AtomicBoolean();
    /** Bumped when a fault starts and when it has settled; odd while a fault is active. */
    private final AtomicLong faultEpoch = new AtomicLong();
    private final List<Thread> threads = new ArrayList<>();

    private final Queue problems = new Queue();
    private final Map<String, AtomicLong> counters = new ConcurrentHashMap<>();
    private final Map<String, String> figures = Collections.synchronizedMap(new LinkedHashMap<>());
    private final ConcurrentLinkedQueue<Long> callMillis = new ConcurrentLinkedQueue<>();
    private final AtomicLong quietMaxHeartbeatAgeMillis = new AtomicLong();
    /**
     * The highest {@link LoadPace#slowness()} seen at the calibration and by the row audit, in
     * thousandths: never while the fifty start, when their own start-up is the load, so that a host
     * counts as starved only for what else runs on it.
     */
    private final AtomicLong peakSlownessMillis = new AtomicLong();
    /** What the suite was doing since when, to tell in which phase a server logged a line. */
    private final List<Map.Entry<Instant, String>> timeline = new CopyOnWriteArrayList<>();
    /** Per assessor: when its call in flight was sent (nanoTime), or 0. */
    private final Map<Long, AtomicLong> inFlightSince = new ConcurrentHashMap<>();

    @Test
    void fiftyServersUnderFourAssessorsKeepEveryRowThroughEveryFault() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")),
                "the load suite watches /proc/<pid>/fd to kill servers mid-registration: Linux only");
        registry = dir.resolve("control_plane.sqlite3");
        holderErrors = dir.resolve("lock-holders.err");
        roster = TestFleets.roster(registry, IntStream.range(0, SERVERS).mapToObj(i -> String.format(Locale.ROOT,
                "{\"namespace\": \"load-%1$02d\", \"profile\": \"load-%1$02d\", \"role\": \"role-%1$02d\"}", i))
                .collect(Collectors.joining(", ")), "load-roster.json");
        jvmOptions = serverJvmOptions();
        long began = System.nanoTime();
        try {
            calibrate();
            startTogether();
            runLoadWithFaults();
            finalVerdicts();
            stopTwoUnderAnExclusiveLock();
            stopEveryServerAtOnce();
        } catch (Exception | AssertionError e) {
            // Whatever was measured until then is still worth reporting, with the logs.
            problems.add("the suite could not go on in phase '" + timeline.get(timeline.size() - 1).getValue()
                    + "': " + e);
        } finally {
            loadRunning.set(false);
            scanServerLogs();
            cleanUp();
        }
        figures.put("suite wall time", seconds(System.nanoTime() - began));
        figures.put("peak slowness (calibration, row audit)", String.format(Locale.ROOT, "%.1f (a starved host from %.1f)",
                peakSlownessMillis.get() / 1000.0, STARVED));
        String summary = summary();
        System.out.println(summary);
        // Kept beside the jar, so that CI can keep the figures of every run.
        Files.writeString(FleetJar.JAR.resolveSibling("load-and-fault-figures.txt"), summary + (problems.isEmpty() ? ""
                : "\n" + String.join("\n", problems.firstFew(200)) + "\n"));
        assertEquals(List.of(), serversOf(registry), "no process outlives the suite");
        assertTrue(problems.isEmpty(), "load-and-fault suite found " + problems.size() + " problem(s):\n"
                + String.join("\n", problems.firstFew(40)) + "\n" + summary);
    }

    // ---------------------------------------------------------------- start

    /**
     * One server started alone on a fresh registry of its own and told to leave by stdin EOF, under
     * whatever else the host runs now: how slow this host is, for every bound the suite checks.
     */
    private void calibrate() throws Exception {
        phase("calibration: one server's start and stop");
        Path alone = dir.resolve("calibration.sqlite3");
        Path aloneRoster = TestFleets.roster(alone, "{\"namespace\": \"load-00\", \"profile\": \"load-00\", "
                + "\"role\": \"role-00\"}", "calibration-roster.json");
        long began = System.nanoTime();
        try (ServeProcess server = ServeProcess.startWith(jvmOptions, alone, aloneRoster, profile(0),
                Map.of("GITEA_MCP_COHORT_ID", COHORT), "--heartbeat-seconds", String.valueOf(HEARTBEAT_SECONDS))) {
            SqliteRegistryReader reader = new SqliteRegistryReader(alone);
            // Bounded by the most patience any wait gets, so a host too slow for even one server fails here.
            long deadline = began + Duration.ofSeconds(240).multipliedBy((long) Math.ceil(Patience.MOST * PATIENCE))
                    .toNanos();
            while (!registered(reader, server.pid())) {
                if (!server.process().isAlive() || System.nanoTime() > deadline) {
                    throw new AssertionError("the calibration server did not register: " + server.diagnosis(20));
                }
                Thread.sleep(50);
            }
            Duration start = Duration.ofNanos(System.nanoTime() - began);
            long told = server.closeStdinAt();
            if (!server.exitsWithin(Duration.ofSeconds(60).multipliedBy((long) Math.ceil(Patience.MOST * PATIENCE))
                    .toMillis())) {
                throw new AssertionError("the calibration server did not exit after stdin EOF: " + server.diagnosis(20));
            }
            pace = new LoadPace(start, Duration.ofNanos(System.nanoTime() - told), PATIENCE);
        }
        noteSlowness();
        figures.put("host", pace.describe());
    }

    private static boolean registered(SqliteRegistryReader reader, long pid) {
        RegistryRead read = reader.read(RegistrationStatus.RUNNING);
        return read.readable() && read.rows().stream().anyMatch(row -> row.pid() == pid);
    }

    /** Item 5: all servers started at once on a registry that does not exist yet; each registers on its first try. */
    private void startTogether() throws Exception {
        phase("start: " + SERVERS + " servers together");
        long start = System.nanoTime();
        for (int i = 0; i < SERVERS; i++) {
            servers.add(startServer(profile(i)));
        }
        Set<Long> pids = servers.stream().map(ServeProcess::pid).collect(Collectors.toSet());
        SqliteRegistryReader reader = new SqliteRegistryReader(registry);
        long firstRow = 0;
        while (true) {
            RegistryRead read = reader.read(RegistrationStatus.RUNNING);
            long registered = read.readable()
                    ? read.rows().stream().filter(row -> pids.contains(row.pid())).count() : 0;
            if (registered > 0 && firstRow == 0) {
                firstRow = System.nanoTime();
            }
            if (registered == SERVERS) {
                break;
            }
            // Re-read at every turn: another suite starting on the host after the calibration slows this one too.
            Duration limit = pace.startTogether(SERVERS, START_FLOOR);
            if (System.nanoTime() - start > limit.toNanos()
                    || servers.stream().anyMatch(server -> !server.process().isAlive())) {
                throw new AssertionError("only " + registered + " of " + SERVERS + " servers registered within "
                        + seconds(System.nanoTime() - start) + " (the bound: " + seconds(limit.toNanos()) + ", "
                        + pace.describe() + "); " + notRegistered(read));
            }
            Thread.sleep(100);
        }
        figures.put("start: first row after", seconds(firstRow - start));
        figures.put("start: all " + SERVERS + " rows after", seconds(System.nanoTime() - start));
        phase("initialising the assessors' sessions");
        // Each failed first registration is a problem, listed with the other log lines at the end;
        // here, when they failed relative to the first success (the end of the first migration).
        List<Instant> registered = new ArrayList<>();
        List<Instant> failed = new ArrayList<>();
        for (ServeProcess server : servers) {
            List<String> lines = server.stderrText().lines().toList();
            lines.stream().filter(line -> line.contains("registered as runtime")).findFirst()
                    .flatMap(LoadAndFaultIT::logTime).ifPresent(registered::add);
            lines.stream().filter(line -> line.contains("registration failed")).findFirst()
                    .flatMap(LoadAndFaultIT::logTime).ifPresent(failed::add);
        }
        figures.put("start: servers whose first registration failed", String.valueOf(failed.size()));
        if (!registered.isEmpty() && !failed.isEmpty()) {
            Instant first = Collections.min(registered);
            figures.put("start: those failures, after the first registration", String.format(Locale.ROOT,
                    "%+.1f s to %+.1f s", Duration.between(first, Collections.min(failed)).toMillis() / 1e3,
                    Duration.between(first, Collections.max(failed)).toMillis() / 1e3));
        }
    }

    private ServeProcess startServer(String profile) throws IOException {
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
        Path archive = FleetJar.JAR.resolveSibling("fleet.jsa");
        if (Files.isRegularFile(archive)) {
            options.add("-XX:SharedArchiveFile=" + archive);
        }
        return options;
    }

    // ---------------------------------------------------------------- load

    private void runLoadWithFaults() throws Exception {
        loadRunning.set(true);
        for (int i = 0; i < ASSESSORS; i++) {
            ServeProcess server = servers.get(i * SERVERS / ASSESSORS);
            initialize(server);
            threads.add(daemon("assessor-" + i, () -> assessInALoop(server)));
        }
        initialize(checker());
        threads.add(daemon("row-audit", this::auditRows));
        phase("load");
        long start = System.nanoTime();
        long end = start + LOAD.toNanos();
        int cycles = 0;
        do {
            quiet(QUIET);
            killDuringRegistration();
            quiet(QUIET);
            stopAWriterInsideItsTransaction();
            quiet(QUIET);
            holdAnExclusiveLock();
            quiet(QUIET);
            deleteTheRegistry();
            cycles++;
        } while (System.nanoTime() < end);
        quiet(Duration.ofNanos(Math.max(QUIET.toNanos(), end - System.nanoTime())));
        loadRunning.set(false);
        phase("end of load");
        for (Thread thread : threads) {
            thread.join(scaled(CALL_LIMIT).toMillis() + 5_000);
        }
        for (ServeProcess server : servers) {
            long since = inFlightSince.getOrDefault(server.pid(), new AtomicLong()).get();
            if (since != 0) {
                problems.add("assessor on pid " + server.pid() + ": no answer to a tool call sent "
                        + seconds(System.nanoTime() - since) + " ago (lost response); the server logged: "
                        + server.stderrText().lines().filter(line -> line.contains("Failed to enqueue")
                                || line.contains("ERROR")).limit(3).toList());
            }
        }
        figures.put("load: duration", seconds(System.nanoTime() - start));
        figures.put("load: fault cycles", String.valueOf(cycles));
    }

    /** One assessor: calls the tool through one server, back to back, and checks every answer. */
    private void assessInALoop(ServeProcess server) {
        AtomicLong inFlight = inFlightSince.computeIfAbsent(server.pid(), pid -> new AtomicLong());
        int id = 100;
        while (loadRunning.get()) {
            long epochBefore = faultEpoch.get();
            long started = System.nanoTime();
            JsonNode verdict;
            inFlight.set(started);
            try {
                verdict = verdictFrom(server, id++);
            } catch (Throwable e) {
                if (loadRunning.get()) {
                    problems.add("assessor on pid " + server.pid() + ": " + e);
                }
                return;
            }
            inFlight.set(0);
            long millis = (System.nanoTime() - started) / 1_000_000;
            callMillis.add(millis);
            if (millis > scaled(CALL_LIMIT).toMillis()) {
                problems.add("assessor on pid " + server.pid() + ": a tool call took " + millis + " ms");
            }
            boolean quiet = epochBefore == faultEpoch.get() && epochBefore % 2 == 0;
            count("verdicts");
            count("verdicts: registry " + verdict.path("registry").path("reason").asText("readable")
                    + (quiet ? "" : " (during a fault)"));
            if (verdict.path("mutation_gate_satisfied").asBoolean()) {
                count("verdicts: gate satisfied");
            }
            List<String> shape = VerdictShape.problems(verdict);
            if (!shape.isEmpty()) {
                count("verdicts: malformed");
                problems.add("malformed verdict from pid " + server.pid() + ": " + shape);
            }
            if (quiet && "locked".equals(verdict.path("registry").path("reason").asText())) {
                problems.add("a verdict outside any fault found the registry locked (pid " + server.pid() + ")");
            }
            sleep(ASSESS_PAUSE);
        }
    }

    private static JsonNode verdictFrom(ServeProcess server, int id) throws IOException {
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

    /**
     * Outside faults, every live server must have a running row at every sample; the oldest heartbeat
     * among them is kept as a figure. Samples taken while a fault is active are only counted.
     */
    private void auditRows() {
        SqliteRegistryReader reader = new SqliteRegistryReader(registry);
        while (loadRunning.get()) {
            long epochBefore = faultEpoch.get();
            noteSlowness();
            RegistryRead read = reader.read(RegistrationStatus.RUNNING);
            Instant now = Instant.now();
            boolean quiet = epochBefore == faultEpoch.get() && epochBefore % 2 == 0;
            count("audit samples" + (quiet ? "" : " during faults"));
            if (!quiet) {
                sleep(Duration.ofMillis(250));
                continue;
            }
            if (!read.readable()) {
                problems.add("audit: the registry was unreadable (" + ((RegistryRead.Unreadable) read).reason() + ") outside any fault");
            } else {
                Map<Long, RegistryRow> rows = read.rows().stream()
                        .collect(Collectors.toMap(RegistryRow::pid, row -> row, (a, b) -> a));
                for (ServeProcess server : servers) {
                    RegistryRow row = rows.get(server.pid());
                    if (!server.process().isAlive()) {
                        problems.add("audit: server pid " + server.pid() + " died during the load");
                    } else if (row == null) {
                        problems.add("audit: live server pid " + server.pid() + " had no running row at " + now
                                + " (lost row outside any fault)");
                    } else {
                        Timestamps.parse(row.lastHeartbeatAt()).ifPresent(beat -> quietMaxHeartbeatAgeMillis
                                .accumulateAndGet(Duration.between(beat, now).toMillis(), Math::max));
                    }
                }
            }
            sleep(Duration.ofMillis(250));
        }
    }

    // ---------------------------------------------------------------- faults

    /**
     * kill -9 of servers in the middle of their registration: a victim is killed once its registry
     * file shows among its open files (its writer has a connection open), at once or a little later,
     * so some die before their transaction, some inside it. Their rows, if any, read as exited.
     */
    private void killDuringRegistration() throws Exception {
        long epoch = beginFault("kill -9 during registration");
        List<ServeProcess> batch = new ArrayList<>();
        for (int k = 0; k < VICTIMS_PER_KILL; k++) {
            ServeProcess victim = startServer(profile((7 + 17 * k) % SERVERS));
            victims.add(victim);
            batch.add(victim);
        }
        long[] firstSeen = new long[batch.size()];
        boolean[] killed = new boolean[batch.size()];
        long deadline = System.nanoTime() + scaled(Duration.ofSeconds(90)).toNanos();
        while (!allTrue(killed) && System.nanoTime() < deadline) {
            for (int k = 0; k < batch.size(); k++) {
                if (killed[k]) {
                    continue;
                }
                long pid = batch.get(k).pid();
                boolean open = hasRegistryOpen(pid);
                if (open && firstSeen[k] == 0) {
                    firstSeen[k] = System.nanoTime();
                }
                if (firstSeen[k] != 0 && System.nanoTime() - firstSeen[k] >= KILL_DELAYS_MILLIS[k] * 1_000_000) {
                    boolean stillOpen = hasRegistryOpen(pid);
                    batch.get(k).process().destroyForcibly(); // SIGKILL
                    killed[k] = true;
                    count(stillOpen ? "kill -9: registry open at the kill" : "kill -9: registry closed at the kill");
                }
                if (!batch.get(k).process().isAlive() && !killed[k]) {
                    problems.add("kill -9: victim pid " + pid + " exited by itself: " + batch.get(k).stderrText());
                    killed[k] = true;
                }
            }
            LockSupport.parkNanos(500_000);
        }
        for (int k = 0; k < batch.size(); k++) {
            if (!killed[k]) {
                count("kill -9: never saw the registry open");
                batch.get(k).process().destroyForcibly();
            }
            if (!batch.get(k).process().waitFor(scaled(Duration.ofSeconds(10)).toMillis(), TimeUnit.MILLISECONDS)) {
                problems.add("kill -9: victim pid " + batch.get(k).pid() + " still alive after SIGKILL");
            }
        }
        Set<Long> victimPids = batch.stream().map(ServeProcess::pid).collect(Collectors.toSet());
        RegistryRead after = new SqliteRegistryReader(registry).readAll();
        long committed = after.rows().stream().filter(row -> victimPids.contains(row.pid())).count();
        counters.computeIfAbsent("kill -9: victims", key -> new AtomicLong()).addAndGet(batch.size());
        counters.computeIfAbsent("kill -9: victims whose row committed", key -> new AtomicLong()).addAndGet(committed);
        settle("kill -9 during registration", Instant.now(), epoch);
    }

    private boolean hasRegistryOpen(long pid) {
        Set<String> names = Set.of(registry.toString(), registry + "-wal", registry + "-shm",
                registry + ".migration-lock");
        try (var fds = Files.list(Path.of("/proc", String.valueOf(pid), "fd"))) {
            return fds.anyMatch(fd -> {
                try {
                    return names.contains(Files.readSymbolicLink(fd).toString());
                } catch (IOException | UnsupportedOperationException gone) {
                    return false;
                }
            });
        } catch (IOException | RuntimeException gone) {
            return false;
        }
    }

    /** Another writer takes the write lock, writes, and is stopped with SIGSTOP inside its transaction. */
    private void stopAWriterInsideItsTransaction() throws Exception {
        holdTheRegistry("writer stopped inside a transaction", "transaction", "in-transaction",
                "stopped writer: lock held", holder -> {
                    signal(holder, "STOP");
                    sleep(FAULT_HOLD);
                    signal(holder, "CONT");
                });
    }

    /** Another process holds the registry in EXCLUSIVE locking mode, inside BEGIN EXCLUSIVE. */
    private void holdAnExclusiveLock() throws Exception {
        holdTheRegistry("exclusive lock held by another process", "exclusive", "locked", "exclusive lock: held",
                holder -> sleep(FAULT_HOLD));
    }

    /**
     * One fault by a lock-holding helper: started in {@code mode}, it says {@code ready} once it holds
     * the registry; {@code hold} runs while it does; then it releases, and every server must settle.
     */
    private void holdTheRegistry(String fault, String mode, String ready, String figure, Hold hold) throws Exception {
        long epoch = beginFault(fault);
        Process holder = startLockHolder(mode);
        BufferedReader out = lines(holder);
        awaitLine(holder, out, ready);
        long locked = System.nanoTime();
        hold.whileHeld(holder);
        release(holder, out);
        figures.merge(figure, seconds(System.nanoTime() - locked), (a, b) -> a + ", " + b);
        settle(fault, Instant.now(), epoch);
    }

    /** What a fault does while its helper holds the registry. */
    @FunctionalInterface
    private interface Hold {
        void whileHeld(Process holder) throws Exception;
    }

    /** An operator's {@code rm control_plane.sqlite3*}: the servers must put their rows back. */
    private void deleteTheRegistry() throws Exception {
        long epoch = beginFault("registry deleted");
        for (String suffix : List.of("", "-wal", "-shm")) {
            Files.deleteIfExists(Path.of(registry + suffix));
        }
        settle("registry deleted", Instant.now(), epoch);
    }

    private Process startLockHolder(String mode) throws IOException {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Process holder = new ProcessBuilder(FleetJar.javaBinary(), "-Xmx32m", "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC", "-XX:-UsePerfData", "-cp", classPath, RegistryLockHolder.class.getName(),
                registry.toString(), mode)
                .redirectError(ProcessBuilder.Redirect.appendTo(holderErrors.toFile()))
                .start();
        helpers.add(holder);
        return holder;
    }

    private void release(Process holder, BufferedReader out) throws Exception {
        OutputStream in = holder.getOutputStream();
        in.write("release\n".getBytes(StandardCharsets.UTF_8));
        in.flush();
        awaitLine(holder, out, "released");
        if (!holder.waitFor(scaled(Duration.ofSeconds(10)).toMillis(), TimeUnit.MILLISECONDS)) {
            problems.add("lock holder pid " + holder.pid() + " did not exit after releasing");
        }
    }

    private void awaitLine(Process holder, BufferedReader out, String prefix) throws Exception {
        String line = within(scaled(Duration.ofSeconds(60)), "lock holder's '" + prefix + "'", out::readLine);
        if (line == null || !line.startsWith(prefix)) {
            throw new AssertionError("lock holder pid " + holder.pid() + " said " + line + " instead of " + prefix
                    + "; its stderr: " + Files.readString(holderErrors, StandardCharsets.UTF_8).strip());
        }
    }

    private static BufferedReader lines(Process process) {
        return new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    private static void signal(Process process, String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(process.pid()))
                .redirectErrorStream(true).start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            kill.destroyForcibly();
            throw new AssertionError("kill -" + signal + " " + process.pid() + " failed");
        }
    }

    private long faultStarted;
    private int checkerIds = 100;

    private long beginFault(String fault) {
        phase("fault: " + fault);
        faultStarted = System.nanoTime();
        return faultEpoch.incrementAndGet();
    }

    private void phase(String name) {
        timeline.add(Map.entry(Instant.now(), name));
    }

    private static Optional<Instant> logTime(String line) {
        try {
            return Optional.of(LOG_TIME.parse(line.substring(0, Math.min(line.length(), 28)),
                    Instant::from));
        } catch (RuntimeException notALogLine) {
            return Optional.empty();
        }
    }

    /** The phase a server's log line was written in, from its slf4j-simple timestamp. */
    private String phaseOf(String line) {
        Instant at = logTime(line).orElse(null);
        if (at == null) {
            return "unknown phase";
        }
        String phase = "before the suite";
        for (Map.Entry<Instant, String> entry : timeline) {
            if (entry.getKey().isAfter(at)) {
                break;
            }
            phase = entry.getValue();
        }
        return phase;
    }

    /**
     * After a fault, every live server must again have a running row whose heartbeat is later than
     * the fault's end, within a few heartbeats (scaled); the time it took is a figure. Then the CLI,
     * assessing from outside, must see the whole fleet with the gate satisfied.
     */
    private void settle(String fault, Instant faultEnd, long epoch) throws Exception {
        phase("settle after: " + fault);
        SqliteRegistryReader reader = new SqliteRegistryReader(registry);
        long start = System.nanoTime();
        long deadline = start + scaled(SETTLE).toNanos();
        List<Long> behind = List.of();
        while (System.nanoTime() < deadline) {
            RegistryRead read = reader.read(RegistrationStatus.RUNNING);
            if (read.readable()) {
                Map<Long, Instant> beats = new TreeMap<>();
                read.rows().forEach(row -> Timestamps.parse(row.lastHeartbeatAt())
                        .ifPresent(beat -> beats.merge(row.pid(), beat, (a, b) -> a.isAfter(b) ? a : b)));
                behind = servers.stream().map(ServeProcess::pid)
                        .filter(pid -> beats.get(pid) == null || beats.get(pid).isBefore(faultEnd)).toList();
                if (behind.isEmpty()) {
                    break;
                }
            }
            Thread.sleep(100);
        }
        String took = seconds(System.nanoTime() - start);
        figures.merge("settle after " + fault, took, (a, b) -> a + ", " + b);
        if (!behind.isEmpty()) {
            Set<Long> late = Set.copyOf(behind);
            problems.add("after '" + fault + "', " + behind.size() + " live server(s) had no running row with a "
                    + "later heartbeat within " + took + " (" + pace.describe() + "): pids " + behind + "; the first:"
                    + servers.stream().filter(server -> late.contains(server.pid())).limit(3)
                            .map(server -> "\n  " + server.diagnosis(8)).collect(Collectors.joining()));
        }
        faultEpoch.compareAndSet(epoch, epoch + 1);
        phase("quiet");
        JsonNode verdict = within(scaled(CALL_LIMIT), "the checker's tool call",
                () -> verdictFrom(checker(), checkerIds++));
        List<String> shape = VerdictShape.problems(verdict);
        if (!verdict.path("mutation_gate_satisfied").asBoolean()
                || verdict.path("running_member_count").asInt() != SERVERS || !shape.isEmpty()) {
            problems.add("after '" + fault + "', the fleet's own verdict shows " + verdict.path("running_member_count")
                    + " running, " + verdict.path("blocked_reasons") + (shape.isEmpty() ? "" : ", malformed: " + shape));
        }
        figures.merge("fault '" + fault + "' from start to settled", seconds(System.nanoTime() - faultStarted),
                (a, b) -> a + ", " + b);
    }

    private void initialize(ServeProcess server) throws Exception {
        within(scaled(CALL_LIMIT), "the MCP handshake with pid " + server.pid(), () -> {
            server.initialize();
            return null;
        });
    }

    /** The last server, which no assessor uses: it answers the suite's own checks between faults. */
    private ServeProcess checker() {
        return servers.get(SERVERS - 1);
    }

    // ---------------------------------------------------------------- end

    /** The fleet as the servers and the CLI see it once the load is over: complete, one digest. */
    private void finalVerdicts() throws Exception {
        phase("final verdicts");
        ServeProcess answering = servers.get(0);
        JsonNode fromServer = within(scaled(Duration.ofSeconds(60)), "a final tool call",
                () -> verdictFrom(answering, 1_000_000));
        FleetJar.Run cli = FleetJar.run("assess", "--registry", registry.toString(), "--roster", roster.toString(),
                "--format", "json");
        JsonNode fromCli = JSON.readTree(cli.stdout().isBlank() ? "null" : cli.stdout());
        if (!fromServer.path("mutation_gate_satisfied").asBoolean()
                || fromServer.path("running_member_count").asInt() != SERVERS) {
            problems.add("final verdict: gate not satisfied or not " + SERVERS + " running: "
                    + fromServer.path("blocked_reasons"));
        }
        if (cli.exitCode() != 0 || !fromServer.path("verdict_digest").equals(fromCli.path("verdict_digest"))) {
            problems.add("final verdict: fleet assess exited " + cli.exitCode() + " with digest "
                    + fromCli.path("verdict_digest") + ", the server's was " + fromServer.path("verdict_digest"));
        }
    }

    /**
     * docs/CONTRACT.md: a server exits within 2 s of stdin EOF or SIGTERM even while another process holds
     * the registry locked; its row may then stay running (it reads as exited). Two servers that no
     * assessor uses are told, one each way, while an EXCLUSIVE lock is held; the 2 s scale with the host.
     */
    private void stopTwoUnderAnExclusiveLock() throws Exception {
        phase("stop under an exclusive lock");
        Process holder = startLockHolder("exclusive");
        BufferedReader out = lines(holder);
        awaitLine(holder, out, "locked");
        List<ServeProcess> leaving = List.of(servers.get(1), servers.get(2));
        Map<ServeProcess, CompletableFuture<Long>> exits = new LinkedHashMap<>();
        leaving.forEach(server -> exits.put(server, server.process().onExit().thenApply(process -> System.nanoTime())));
        long toldEof = leaving.get(0).closeStdinAt();
        long toldTerm = System.nanoTime();
        leaving.get(1).process().destroy(); // SIGTERM
        try {
            // The lock is held no longer than the other faults hold theirs, however slow the exits.
            CompletableFuture.allOf(exits.values().toArray(CompletableFuture[]::new))
                    .get(FAULT_HOLD.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException stillRunning) {
            // Measured below.
        } finally {
            release(holder, out);
        }
        List<String> times = new ArrayList<>();
        // Two told at once, on a host as slow as measured: the contract's 2 s, scaled, for each.
        Duration bound = pace.massStop(EXIT_LIMIT, leaving.size());
        for (ServeProcess server : leaving) {
            long told = server == leaving.get(0) ? toldEof : toldTerm;
            try {
                long millis = (exits.get(server).get(scaled(Duration.ofSeconds(30)).toMillis(), TimeUnit.MILLISECONDS)
                        - told) / 1_000_000;
                times.add(millis + " ms");
                if (millis > bound.toMillis()) {
                    problems.add("stop under an exclusive lock: pid " + server.pid() + " ("
                            + (server == leaving.get(0) ? "stdin EOF" : "SIGTERM") + ") exited " + millis
                            + " ms after being told; the contract's 2 s on this host: " + bound.toMillis() + " ms ("
                            + pace.describe() + ")");
                }
            } catch (TimeoutException e) {
                problems.add("stop under an exclusive lock: pid " + server.pid() + " had not exited 30 s after being told");
            }
        }
        figures.put("stop under an exclusive lock: exits (EOF, SIGTERM)", String.join(", ", times));
        leftUnderLock.addAll(leaving);
        servers.removeAll(leaving);
    }

    /**
     * Every server told to leave at the same moment, half by stdin EOF (exit 0), half by SIGTERM
     * (exit 143): each must exit, its row marked stopped, within the contract's 2 s as it scales for
     * one of fifty told at once on this host ({@link LoadPace#massStop}); a late exit inside that bound
     * is counted, not failed.
     */
    private void stopEveryServerAtOnce() throws Exception {
        phase("stop: every server told to exit");
        Map<ServeProcess, CompletableFuture<Long>> exits = new LinkedHashMap<>();
        Map<ServeProcess, Long> told = new LinkedHashMap<>();
        for (ServeProcess server : servers) {
            exits.put(server, server.process().onExit().thenApply(process -> System.nanoTime()));
        }
        for (int i = 0; i < servers.size(); i++) {
            ServeProcess server = servers.get(i);
            if (i % 2 == 0) {
                told.put(server, server.closeStdinAt());
            } else {
                told.put(server, System.nanoTime());
                server.process().destroy(); // SIGTERM
            }
        }
        long slowest = 0;
        int late = 0;
        int over2s = 0;
        // All at once on few cores: each waits its turn behind the others' exits (see LoadPace#massStop).
        Duration bound = pace.massStop(EXIT_LIMIT, servers.size());
        for (int i = 0; i < servers.size(); i++) {
            ServeProcess server = servers.get(i);
            try {
                long exited = exits.get(server).get(scaled(Duration.ofSeconds(30)).toMillis(), TimeUnit.MILLISECONDS);
                long millis = (exited - told.get(server)) / 1_000_000;
                slowest = Math.max(slowest, millis);
                over2s += millis > EXIT_LIMIT.toMillis() ? 1 : 0;
                if (millis > bound.toMillis()) {
                    late++;
                    problems.add("stop: pid " + server.pid() + " (" + (i % 2 == 0 ? "stdin EOF" : "SIGTERM")
                            + ") exited " + millis + " ms after being told, past " + bound.toMillis() + " ms: the "
                            + "contract's 2 s for one of " + servers.size() + " told at once on this host ("
                            + pace.describe() + ")");
                }
                int expected = i % 2 == 0 ? 0 : 143;
                if (server.process().exitValue() != expected) {
                    problems.add("stop: pid " + server.pid() + " exited " + server.process().exitValue() + ", not "
                            + expected);
                }
            } catch (TimeoutException e) {
                problems.add("stop: pid " + server.pid() + " had not exited " + scaled(Duration.ofSeconds(30)).toSeconds()
                        + " s after being told");
            }
        }
        figures.put("stop: slowest exit", slowest + " ms (" + late + " over the bound of " + bound.toMillis()
                + " ms; " + over2s + " over 2 s, allowed when told all at once)");
        Set<Long> pids = servers.stream().map(ServeProcess::pid).collect(Collectors.toSet());
        RegistryRead rows = new SqliteRegistryReader(registry).readAll();
        List<RegistryRow> ours = rows.rows().stream().filter(row -> pids.contains(row.pid())).toList();
        long stopped = ours.stream().filter(row -> "stopped".equals(row.status())).count();
        figures.put("stop: rows marked stopped", stopped + " of " + servers.size());
        if (!rows.readable()) {
            problems.add("stop: the registry is unreadable after the stop (" + ((RegistryRead.Unreadable) rows).reason() + ")");
        }
        // A stop gives up its write rather than its 2 s (the contract): a row left running by a server
        // that has gone must read as process_exited, never as a live member.
        Set<String> leftRunning = ours.stream().filter(row -> "running".equals(row.status()))
                .map(RegistryRow::runtimeId).collect(Collectors.toSet());
        if (!leftRunning.isEmpty()) {
            FleetJar.Run after = FleetJar.run("assess", "--registry", registry.toString(), "--roster",
                    roster.toString(), "--format", "json");
            JsonNode verdict = JSON.readTree(after.stdout());
            Set<String> exited = new java.util.HashSet<>();
            verdict.path("stale_registrations").forEach(entry -> {
                if ("process_exited".equals(entry.path("reason").asText())) {
                    exited.add(entry.path("runtime_id").asText());
                }
            });
            if (!exited.containsAll(leftRunning)) {
                problems.add("stop: rows left running by servers that have gone do not read as process_exited: "
                        + after.stdout());
            }
        }
    }

    /** Whatever a server logged over the whole run: no busy error, no failed registration, no failed stop. */
    private void scanServerLogs() {
        long reRegistrations = 0;
        for (ServeProcess server : concat(servers, leftUnderLock)) {
            List<String> lines;
            try {
                lines = server.stderrText().lines().toList();
            } catch (IOException e) {
                problems.add("cannot read the log of pid " + server.pid() + ": " + e);
                continue;
            }
            reRegistrations += lines.stream().filter(line -> line.contains("registering again")).count();
            for (String line : lines) {
                if (line.contains("could not mark") && phaseOf(line).startsWith("stop")) {
                    // Fifty servers stopping at once: a stop gives up its write rather than its 2 s, as
                    // the contract allows; stopEveryServerAtOnce checks that such rows read as exited.
                    count("server log: stop writes given up");
                    continue;
                }
                boolean busy = BUSY_MARKERS.stream().anyMatch(line::contains);
                if (busy && line.contains("busy through") && starved() && registeredAfter(lines, line)) {
                    count("server log: busy writes past the 30 s deadline on a starved host, registered later (allowed)");
                    continue;
                }
                if (leftUnderLock.contains(server) && line.contains("could not mark")
                        && phaseOf(line).equals("stop under an exclusive lock")) {
                    count("server log: stops under the exclusive lock left their row running (allowed)");
                    continue;
                }
                if (busy || line.contains("registration failed") || line.contains("could not mark")) {
                    String phase = phaseOf(line);
                    count("server log: " + (busy ? "busy errors" : "failed writes") + " in phase '" + phase + "'");
                    problems.add("[" + phase + "] pid " + server.pid() + ": " + line);
                } else if (line.contains("ERROR")) {
                    count("server log: other ERROR lines in phase '" + phaseOf(line) + "'");
                    problems.add("[" + phaseOf(line) + "] pid " + server.pid() + ": " + line);
                }
            }
        }
        figures.put("server log: 'registering again' lines", String.valueOf(reRegistrations));
    }

    private void noteSlowness() {
        peakSlownessMillis.accumulateAndGet((long) (pace.slowness() * 1000), Math::max);
    }

    private boolean starved() {
        return peakSlownessMillis.get() / 1000.0 >= STARVED;
    }

    /**
     * Whether what {@code failure} left undone was done later: a failed registration is followed by a
     * registration. (A failed heartbeat logs nothing when the next one succeeds; a row it lost would
     * show in the audit and the settle checks, which are problems of their own.)
     */
    private static boolean registeredAfter(List<String> lines, String failure) {
        if (!failure.contains("registration failed")) {
            return true;
        }
        return lines.subList(lines.indexOf(failure), lines.size()).stream()
                .anyMatch(line -> line.contains("registered as runtime"));
    }

    private void cleanUp() {
        List<Process> all = new ArrayList<>(helpers);
        concat(servers, leftUnderLock).forEach(server -> all.add(server.process()));
        victims.forEach(victim -> all.add(victim.process()));
        all.forEach(Process::destroyForcibly);
        for (Process process : all) {
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        concat(concat(servers, victims), leftUnderLock).forEach(ServeProcess::close);
    }

    // ---------------------------------------------------------------- helpers

    private String summary() {
        List<Long> calls = new ArrayList<>(callMillis);
        Collections.sort(calls);
        StringBuilder text = new StringBuilder(String.format(Locale.ROOT,
                "%n== load-and-fault figures: %d servers, %d assessors, load %d s, heartbeat %d s, patience %.1f ==%n",
                SERVERS, ASSESSORS, LOAD.toSeconds(), HEARTBEAT_SECONDS, PATIENCE));
        figures.forEach((name, value) -> text.append("  ").append(name).append(": ").append(value).append('\n'));
        new TreeMap<>(counters).forEach((name, value) -> text.append("  ").append(name).append(": ")
                .append(value.get()).append('\n'));
        if (!calls.isEmpty()) {
            text.append(String.format(Locale.ROOT, "  tool calls: median %d ms, p95 %d ms, max %d ms%n",
                    calls.get(calls.size() / 2), calls.get(calls.size() * 95 / 100), calls.get(calls.size() - 1)));
        }
        text.append("  audit: oldest heartbeat outside faults: ").append(quietMaxHeartbeatAgeMillis.get())
                .append(" ms\n");
        text.append("  problems: ").append(problems.size()).append('\n');
        return text.toString();
    }

    /**
     * Why servers have not registered, as well as can be told from outside: the registry as read, who
     * holds its migration lock, and for a few of the servers without a row where each is (alive or
     * its exit, the CPU it has had, the tail of its stderr).
     */
    private String notRegistered(RegistryRead read) {
        Set<Long> rows = read.rows().stream().map(RegistryRow::pid).collect(Collectors.toSet());
        List<ServeProcess> missing = servers.stream().filter(server -> !rows.contains(server.pid())).toList();
        StringBuilder text = new StringBuilder("the registry read ")
                .append(read.readable() ? "readable" : "unreadable (" + ((RegistryRead.Unreadable) read).reason() + ")")
                .append("; migration lock file: ").append(migrationLockHolder()).append("; ")
                .append(missing.size()).append(" without a row, ")
                .append(missing.stream().filter(server -> !server.process().isAlive()).count()).append(" exited; ")
                .append(missing.stream().filter(server -> {
                    try {
                        return server.stderrText().isEmpty();
                    } catch (IOException e) {
                        return false;
                    }
                }).count()).append(" with nothing on stderr. The first of them:");
        // The exited first: their stderr says why they left.
        missing.stream().sorted(java.util.Comparator.comparing((ServeProcess server) -> server.process().isAlive()))
                .limit(5).forEach(server -> text.append("\n  ").append(server.diagnosis(8)));
        return text.toString();
    }

    private String migrationLockHolder() {
        Path lock = Path.of(registry + ".migration-lock");
        try {
            return Files.exists(lock) ? "names pid " + Files.readString(lock).trim() : "absent";
        } catch (IOException e) {
            return "unreadable (" + e.getMessage() + ")";
        }
    }

    private static List<ProcessHandle> serversOf(Path registry) {
        return ProcessHandle.allProcesses()
                .filter(process -> process.info().commandLine().orElse("").contains(registry.toString()))
                .toList();
    }

    private void quiet(Duration duration) {
        sleep(duration);
    }

    private void count(String name) {
        counters.computeIfAbsent(name, key -> new AtomicLong()).incrementAndGet();
    }

    private static String profile(int i) {
        return String.format(Locale.ROOT, "load-%02d", i);
    }

    /** A bound written for a quiet two-core host, for this host now (see {@link LoadPace}). */
    private Duration scaled(Duration duration) {
        return pace.scaled(duration);
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
    }

    private static boolean allTrue(boolean[] values) {
        for (boolean value : values) {
            if (!value) {
                return false;
            }
        }
        return true;
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        List<T> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private Thread daemon(String name, Runnable body) {
        Thread thread = new Thread(body, "load-" + name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** Runs a blocking call on its own thread and gives up after {@code limit}. */
    private static <T> T within(Duration limit, String what, Callable<T> call) throws Exception {
        CompletableFuture<T> future = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                future.complete(call.call());
            } catch (Throwable e) {
                future.completeExceptionally(e);
            }
        }, "load-bounded-call");
        thread.setDaemon(true);
        thread.start();
        try {
            return future.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError(what + " did not complete within " + limit.toSeconds() + " s");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw new AssertionError(e.getCause());
        }
    }

    /** Problems found by any thread, kept in order. */
    private static final class Queue {
        private final ConcurrentLinkedQueue<String> items = new ConcurrentLinkedQueue<>();

        void add(String problem) {
            items.add(problem);
        }

        boolean isEmpty() {
            return items.isEmpty();
        }

        int size() {
            return items.size();
        }

        List<String> firstFew(int limit) {
            return items.stream().limit(limit).toList();
        }
    }
}
