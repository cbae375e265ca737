package dev.fleet.cli.load;

import static dev.fleet.cli.load.LoadHelpers.seconds;
import static dev.fleet.cli.load.LoadRun.COHORT;
import static dev.fleet.cli.load.LoadRun.HEARTBEAT_SECONDS;
import static dev.fleet.cli.load.LoadRun.PATIENCE;
import static dev.fleet.cli.load.LoadRun.SERVERS;
import static dev.fleet.cli.load.LoadRun.profile;

import dev.fleet.cli.testing.ServeProcess;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryRow;
import dev.fleet.registry.sqlite.SqliteRegistryReader;
import dev.fleet.testing.Patience;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The load-and-fault suite's start ({@link LoadAndFaultIT}): how slow this host is, from one server
 * alone, then every server started at once on a registry that does not exist yet.
 */
final class LoadStart extends LoadPhase {

    /** Before the fifty start, nothing else in the suite has run: the quiet-host bound of all fifty registering. */
    private static final Duration START_FLOOR = Duration.ofSeconds(240);

    LoadStart(LoadRun run) {
        super(run);
    }

    /**
     * One server started alone on a fresh registry of its own and told to leave by stdin EOF, under
     * whatever else the host runs now: how slow this host is, for every bound the suite checks.
     */
    void calibrate() throws Exception {
        run.phase("calibration: one server's start and stop");
        Path alone = run.dir.resolve("calibration.sqlite3");
        Path aloneRoster = TestFleets.roster(alone, "{\"namespace\": \"load-00\", \"profile\": \"load-00\", "
                + "\"role\": \"role-00\"}", "calibration-roster.json");
        long began = System.nanoTime();
        try (ServeProcess server = ServeProcess.startWith(run.jvmOptions, alone, aloneRoster, profile(0),
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
            run.pace = new LoadPace(start, Duration.ofNanos(System.nanoTime() - told), PATIENCE);
        }
        run.noteSlowness();
        found.figure("host", run.pace.describe());
    }

    private static boolean registered(SqliteRegistryReader reader, long pid) {
        RegistryRead read = reader.read(RegistrationStatus.RUNNING);
        return read.readable() && read.rows().stream().anyMatch(row -> row.pid() == pid);
    }

    /** Item 5: all servers started at once on a registry that does not exist yet; each registers on its first try. */
    void startTogether() throws Exception {
        run.phase("start: " + SERVERS + " servers together");
        long start = System.nanoTime();
        for (int i = 0; i < SERVERS; i++) {
            run.servers.add(run.startServer(profile(i)));
        }
        Set<Long> pids = run.servers.stream().map(ServeProcess::pid).collect(Collectors.toSet());
        SqliteRegistryReader reader = new SqliteRegistryReader(run.registry);
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
            Duration limit = run.pace.startTogether(SERVERS, START_FLOOR);
            if (System.nanoTime() - start > limit.toNanos()
                    || run.servers.stream().anyMatch(server -> !server.process().isAlive())) {
                throw new AssertionError("only " + registered + " of " + SERVERS + " servers registered within "
                        + seconds(System.nanoTime() - start) + " (the bound: " + seconds(limit.toNanos()) + ", "
                        + run.pace.describe() + "); " + notRegistered(read));
            }
            Thread.sleep(100);
        }
        found.figure("start: first row after", seconds(firstRow - start));
        found.figure("start: all " + SERVERS + " rows after", seconds(System.nanoTime() - start));
        run.phase("initialising the assessors' sessions");
        // Each failed first registration is a problem, listed with the other log lines at the end;
        // here, when they failed relative to the first success (the end of the first migration).
        List<Instant> registered = new ArrayList<>();
        List<Instant> failed = new ArrayList<>();
        for (ServeProcess server : run.servers) {
            List<String> lines = server.stderrText().lines().toList();
            lines.stream().filter(line -> line.contains("registered as runtime")).findFirst()
                    .flatMap(ServerLogScan::logTime).ifPresent(registered::add);
            lines.stream().filter(line -> line.contains("registration failed")).findFirst()
                    .flatMap(ServerLogScan::logTime).ifPresent(failed::add);
        }
        found.figure("start: servers whose first registration failed", String.valueOf(failed.size()));
        if (!registered.isEmpty() && !failed.isEmpty()) {
            Instant first = Collections.min(registered);
            found.figure("start: those failures, after the first registration", String.format(Locale.ROOT,
                    "%+.1f s to %+.1f s", Duration.between(first, Collections.min(failed)).toMillis() / 1e3,
                    Duration.between(first, Collections.max(failed)).toMillis() / 1e3));
        }
    }

    /**
     * Why servers have not registered, as well as can be told from outside: the registry as read, who
     * holds its migration lock, and for a few of the servers without a row where each is (alive or
     * its exit, the CPU it has had, the tail of its stderr).
     */
    private String notRegistered(RegistryRead read) {
        Set<Long> rows = read.rows().stream().map(RegistryRow::pid).collect(Collectors.toSet());
        List<ServeProcess> missing = run.servers.stream().filter(server -> !rows.contains(server.pid())).toList();
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
        Path lock = Path.of(run.registry + ".migration-lock");
        try {
            return Files.exists(lock) ? "names pid " + Files.readString(lock).trim() : "absent";
        } catch (IOException e) {
            return "unreadable (" + e.getMessage() + ")";
        }
    }
}
