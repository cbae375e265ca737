package dev.fleet.cli.load;

import static dev.fleet.cli.load.LoadHelpers.daemon;
import static dev.fleet.cli.load.LoadHelpers.seconds;
import static dev.fleet.cli.load.LoadHelpers.sleep;
import static dev.fleet.cli.load.LoadHelpers.within;
import static dev.fleet.cli.load.LoadRun.ASSESSORS;
import static dev.fleet.cli.load.LoadRun.CALL_LIMIT;
import static dev.fleet.cli.load.LoadRun.LOAD;
import static dev.fleet.cli.load.LoadRun.SERVERS;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fleet.cli.testing.ServeProcess;
import dev.fleet.cli.testing.VerdictShape;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Timestamps;
import dev.fleet.registry.sqlite.SqliteRegistryReader;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * The load-and-fault suite's load ({@link LoadAndFaultIT}): assessors calling the tool through a few
 * servers back to back and an audit of the registry's rows, while {@link RegistryFaults} injects one
 * fault after another, in cycles, until the load has run its time. What a verdict or a row shows
 * during a fault is only counted; outside one, a lost row or a locked registry is a problem.
 */
final class LoadUnderFaults extends LoadPhase {

    /** Between one assessor's calls: a controller assesses before a mutation, not in a hot loop. */
    private static final Duration ASSESS_PAUSE = Duration.ofMillis(Long.getLong("fleet.load.assessPauseMillis", 500));
    /** Quiet time before each fault, during which the audit must see every row. */
    private static final Duration QUIET = Duration.ofSeconds(2);

    private final RegistryFaults faults;
    private final List<Thread> threads = new ArrayList<>();
    /** Per assessor: when its call in flight was sent (nanoTime), or 0. */
    private final Map<Long, AtomicLong> inFlightSince = new ConcurrentHashMap<>();

    LoadUnderFaults(LoadRun run) {
        super(run);
        this.faults = new RegistryFaults(run);
    }

    void runLoadWithFaults() throws Exception {
        run.loadRunning.set(true);
        for (int i = 0; i < ASSESSORS; i++) {
            ServeProcess server = run.servers.get(i * SERVERS / ASSESSORS);
            initialize(server);
            threads.add(daemon("assessor-" + i, () -> assessInALoop(server)));
        }
        initialize(run.checker());
        threads.add(daemon("row-audit", this::auditRows));
        run.phase("load");
        long start = System.nanoTime();
        long end = start + LOAD.toNanos();
        int cycles = 0;
        do {
            quiet(QUIET);
            faults.killDuringRegistration();
            quiet(QUIET);
            faults.stopAWriterInsideItsTransaction();
            quiet(QUIET);
            faults.holdAnExclusiveLock();
            quiet(QUIET);
            faults.deleteTheRegistry();
            cycles++;
        } while (System.nanoTime() < end);
        quiet(Duration.ofNanos(Math.max(QUIET.toNanos(), end - System.nanoTime())));
        run.loadRunning.set(false);
        run.phase("end of load");
        for (Thread thread : threads) {
            thread.join(run.scaled(CALL_LIMIT).toMillis() + 5_000);
        }
        for (ServeProcess server : run.servers) {
            long since = inFlightSince.getOrDefault(server.pid(), new AtomicLong()).get();
            if (since != 0) {
                found.problem("assessor on pid " + server.pid() + ": no answer to a tool call sent "
                        + seconds(System.nanoTime() - since) + " ago (lost response); the server logged: "
                        + server.stderrText().lines().filter(line -> line.contains("Failed to enqueue")
                                || line.contains("ERROR")).limit(3).toList());
            }
        }
        found.figure("load: duration", seconds(System.nanoTime() - start));
        found.figure("load: fault cycles", String.valueOf(cycles));
    }

    private void initialize(ServeProcess server) throws Exception {
        within(run.scaled(CALL_LIMIT), "the MCP handshake with pid " + server.pid(), () -> {
            server.initialize();
            return null;
        });
    }

    /** One assessor: calls the tool through one server, back to back, and checks every answer. */
    private void assessInALoop(ServeProcess server) {
        AtomicLong inFlight = inFlightSince.computeIfAbsent(server.pid(), pid -> new AtomicLong());
        int id = 100;
        while (run.loadRunning.get()) {
            long epochBefore = run.faultEpoch.get();
            long started = System.nanoTime();
            JsonNode verdict;
            inFlight.set(started);
            try {
                verdict = LoadRun.verdictFrom(server, id++);
            } catch (Throwable e) {
                if (run.loadRunning.get()) {
                    found.problem("assessor on pid " + server.pid() + ": " + e);
                }
                return;
            }
            inFlight.set(0);
            long millis = (System.nanoTime() - started) / 1_000_000;
            found.callTook(millis);
            if (millis > run.scaled(CALL_LIMIT).toMillis()) {
                found.problem("assessor on pid " + server.pid() + ": a tool call took " + millis + " ms");
            }
            boolean quiet = epochBefore == run.faultEpoch.get() && epochBefore % 2 == 0;
            found.count("verdicts");
            found.count("verdicts: registry " + verdict.path("registry").path("reason").asText("readable")
                    + (quiet ? "" : " (during a fault)"));
            if (verdict.path("mutation_gate_satisfied").asBoolean()) {
                found.count("verdicts: gate satisfied");
            }
            List<String> shape = VerdictShape.problems(verdict);
            if (!shape.isEmpty()) {
                found.count("verdicts: malformed");
                found.problem("malformed verdict from pid " + server.pid() + ": " + shape);
            }
            if (quiet && "locked".equals(verdict.path("registry").path("reason").asText())) {
                found.problem("a verdict outside any fault found the registry locked (pid " + server.pid() + ")");
            }
            sleep(ASSESS_PAUSE);
        }
    }

    /**
     * Outside faults, every live server must have a running row at every sample; the oldest heartbeat
     * among them is kept as a figure. Samples taken while a fault is active are only counted.
     */
    private void auditRows() {
        SqliteRegistryReader reader = new SqliteRegistryReader(run.registry);
        while (run.loadRunning.get()) {
            long epochBefore = run.faultEpoch.get();
            run.noteSlowness();
            RegistryRead read = reader.read(RegistrationStatus.RUNNING);
            Instant now = Instant.now();
            boolean quiet = epochBefore == run.faultEpoch.get() && epochBefore % 2 == 0;
            found.count("audit samples" + (quiet ? "" : " during faults"));
            if (!quiet) {
                sleep(Duration.ofMillis(250));
                continue;
            }
            if (!read.readable()) {
                found.problem("audit: the registry was unreadable (" + ((RegistryRead.Unreadable) read).reason()
                        + ") outside any fault");
            } else {
                Map<Long, RegistryRow> rows = read.rows().stream()
                        .collect(Collectors.toMap(RegistryRow::pid, row -> row, (a, b) -> a));
                for (ServeProcess server : run.servers) {
                    RegistryRow row = rows.get(server.pid());
                    if (!server.process().isAlive()) {
                        found.problem("audit: server pid " + server.pid() + " died during the load");
                    } else if (row == null) {
                        found.problem("audit: live server pid " + server.pid() + " had no running row at " + now
                                + " (lost row outside any fault)");
                    } else {
                        Timestamps.parse(row.lastHeartbeatAt()).ifPresent(beat -> found.quietHeartbeatAge(
                                Duration.between(beat, now).toMillis()));
                    }
                }
            }
            sleep(Duration.ofMillis(250));
        }
    }

    private static void quiet(Duration duration) {
        sleep(duration);
    }
}
