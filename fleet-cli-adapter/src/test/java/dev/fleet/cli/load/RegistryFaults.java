package dev.fleet.cli.load;

import static dev.fleet.cli.load.LoadHelpers.seconds;
import static dev.fleet.cli.load.LoadHelpers.sleep;
import static dev.fleet.cli.load.LoadHelpers.within;
import static dev.fleet.cli.load.LoadRun.CALL_LIMIT;
import static dev.fleet.cli.load.LoadRun.FAULT_HOLD;
import static dev.fleet.cli.load.LoadRun.HEARTBEAT_SECONDS;
import static dev.fleet.cli.load.LoadRun.SERVERS;
import static dev.fleet.cli.load.LoadRun.profile;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fleet.cli.testing.ServeProcess;
import dev.fleet.cli.testing.VerdictShape;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.Timestamps;
import dev.fleet.registry.sqlite.SqliteRegistryReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

/**
 * The faults of the load-and-fault suite ({@link LoadAndFaultIT}, items 5 and 8), each followed by its
 * settle: kill -9 of servers mid-registration, another writer stopped inside its transaction, an
 * exclusive lock held by another process, the registry deleted under the live servers. A fault bumps
 * the run's fault epoch when it starts and when it has settled, so the load tells what it saw during one.
 */
final class RegistryFaults extends LoadPhase {

    /** How long, after a fault ends, every live server may take to show a fresh running row again. */
    private static final Duration SETTLE = Duration.ofSeconds(15L * HEARTBEAT_SECONDS);
    private static final int VICTIMS_PER_KILL = 3;
    /** Kill a victim this long after its registry file first showed among its open files. */
    private static final long[] KILL_DELAYS_MILLIS = {0, 300, 1_500};

    private long faultStarted;
    private int checkerIds = 100;

    RegistryFaults(LoadRun run) {
        super(run);
    }

    /**
     * kill -9 of servers in the middle of their registration: a victim is killed once its registry
     * file shows among its open files (its writer has a connection open), at once or a little later,
     * so some die before their transaction, some inside it. Their rows, if any, read as exited.
     */
    void killDuringRegistration() throws Exception {
        long epoch = beginFault("kill -9 during registration");
        List<ServeProcess> batch = new ArrayList<>();
        for (int k = 0; k < VICTIMS_PER_KILL; k++) {
            ServeProcess victim = run.startServer(profile((7 + 17 * k) % SERVERS));
            run.victims.add(victim);
            batch.add(victim);
        }
        long[] firstSeen = new long[batch.size()];
        boolean[] killed = new boolean[batch.size()];
        long deadline = System.nanoTime() + run.scaled(Duration.ofSeconds(90)).toNanos();
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
                    found.count(stillOpen ? "kill -9: registry open at the kill" : "kill -9: registry closed at the kill");
                }
                if (!batch.get(k).process().isAlive() && !killed[k]) {
                    found.problem("kill -9: victim pid " + pid + " exited by itself: " + batch.get(k).stderrText());
                    killed[k] = true;
                }
            }
            LockSupport.parkNanos(500_000);
        }
        for (int k = 0; k < batch.size(); k++) {
            if (!killed[k]) {
                found.count("kill -9: never saw the registry open");
                batch.get(k).process().destroyForcibly();
            }
            if (!batch.get(k).process().waitFor(run.scaled(Duration.ofSeconds(10)).toMillis(), TimeUnit.MILLISECONDS)) {
                found.problem("kill -9: victim pid " + batch.get(k).pid() + " still alive after SIGKILL");
            }
        }
        Set<Long> victimPids = batch.stream().map(ServeProcess::pid).collect(Collectors.toSet());
        RegistryRead after = new SqliteRegistryReader(run.registry).readAll();
        long committed = after.rows().stream().filter(row -> victimPids.contains(row.pid())).count();
        found.add("kill -9: victims", batch.size());
        found.add("kill -9: victims whose row committed", committed);
        settle("kill -9 during registration", Instant.now(), epoch);
    }

    private boolean hasRegistryOpen(long pid) {
        Path registry = run.registry;
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

    private static boolean allTrue(boolean[] values) {
        for (boolean value : values) {
            if (!value) {
                return false;
            }
        }
        return true;
    }

    /** Another writer takes the write lock, writes, and is stopped with SIGSTOP inside its transaction. */
    void stopAWriterInsideItsTransaction() throws Exception {
        holdTheRegistry("writer stopped inside a transaction", "transaction", "in-transaction",
                "stopped writer: lock held", holder -> {
                    holder.signal("STOP");
                    sleep(FAULT_HOLD);
                    holder.signal("CONT");
                });
    }

    /** Another process holds the registry in EXCLUSIVE locking mode, inside BEGIN EXCLUSIVE. */
    void holdAnExclusiveLock() throws Exception {
        holdTheRegistry("exclusive lock held by another process", "exclusive", "locked", "exclusive lock: held",
                holder -> sleep(FAULT_HOLD));
    }

    /**
     * One fault by a lock-holding helper: started in {@code mode}, it says {@code ready} once it holds
     * the registry; {@code hold} runs while it does; then it releases, and every server must settle.
     */
    private void holdTheRegistry(String fault, String mode, String ready, String figure, Hold hold) throws Exception {
        long epoch = beginFault(fault);
        LockHolderProcess holder = LockHolderProcess.start(run, mode);
        holder.awaitLine(ready);
        long locked = System.nanoTime();
        hold.whileHeld(holder);
        holder.release();
        found.anotherFigure(figure, seconds(System.nanoTime() - locked));
        settle(fault, Instant.now(), epoch);
    }

    /** What a fault does while its helper holds the registry. */
    @FunctionalInterface
    private interface Hold {
        void whileHeld(LockHolderProcess holder) throws Exception;
    }

    /** An operator's {@code rm control_plane.sqlite3*}: the servers must put their rows back. */
    void deleteTheRegistry() throws Exception {
        long epoch = beginFault("registry deleted");
        for (String suffix : List.of("", "-wal", "-shm")) {
            Files.deleteIfExists(Path.of(run.registry + suffix));
        }
        settle("registry deleted", Instant.now(), epoch);
    }

    private long beginFault(String fault) {
        run.phase("fault: " + fault);
        faultStarted = System.nanoTime();
        return run.faultEpoch.incrementAndGet();
    }

    /**
     * After a fault, every live server must again have a running row whose heartbeat is later than
     * the fault's end, within a few heartbeats (scaled); the time it took is a figure. Then the CLI,
     * assessing from outside, must see the whole fleet with the gate satisfied.
     */
    private void settle(String fault, Instant faultEnd, long epoch) throws Exception {
        run.phase("settle after: " + fault);
        SqliteRegistryReader reader = new SqliteRegistryReader(run.registry);
        long start = System.nanoTime();
        long deadline = start + run.scaled(SETTLE).toNanos();
        List<Long> behind = List.of();
        while (System.nanoTime() < deadline) {
            RegistryRead read = reader.read(RegistrationStatus.RUNNING);
            if (read.readable()) {
                Map<Long, Instant> beats = new TreeMap<>();
                read.rows().forEach(row -> Timestamps.parse(row.lastHeartbeatAt())
                        .ifPresent(beat -> beats.merge(row.pid(), beat, (a, b) -> a.isAfter(b) ? a : b)));
                behind = run.servers.stream().map(ServeProcess::pid)
                        .filter(pid -> beats.get(pid) == null || beats.get(pid).isBefore(faultEnd)).toList();
                if (behind.isEmpty()) {
                    break;
                }
            }
            Thread.sleep(100);
        }
        String took = seconds(System.nanoTime() - start);
        found.anotherFigure("settle after " + fault, took);
        if (!behind.isEmpty()) {
            Set<Long> late = Set.copyOf(behind);
            found.problem("after '" + fault + "', " + behind.size() + " live server(s) had no running row with a "
                    + "later heartbeat within " + took + " (" + run.pace.describe() + "): pids " + behind + "; the first:"
                    + run.servers.stream().filter(server -> late.contains(server.pid())).limit(3)
                            .map(server -> "\n  " + server.diagnosis(8)).collect(Collectors.joining()));
        }
        run.faultEpoch.compareAndSet(epoch, epoch + 1);
        run.phase("quiet");
        JsonNode verdict = within(run.scaled(CALL_LIMIT), "the checker's tool call",
                () -> LoadRun.verdictFrom(run.checker(), checkerIds++));
        List<String> shape = VerdictShape.problems(verdict);
        if (!verdict.path("mutation_gate_satisfied").asBoolean()
                || verdict.path("running_member_count").asInt() != SERVERS || !shape.isEmpty()) {
            found.problem("after '" + fault + "', the fleet's own verdict shows " + verdict.path("running_member_count")
                    + " running, " + verdict.path("blocked_reasons") + (shape.isEmpty() ? "" : ", malformed: " + shape));
        }
        found.anotherFigure("fault '" + fault + "' from start to settled", seconds(System.nanoTime() - faultStarted));
    }
}
