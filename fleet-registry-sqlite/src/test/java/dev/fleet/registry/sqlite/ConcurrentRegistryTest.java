package dev.fleet.registry.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.port.out.RegistryWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many servers registering and heartbeating while assessments read: the contract says no row is lost and
 * "database is locked" never surfaces. Each writer thread has its own writer, as each server would.
 */
class ConcurrentRegistryTest {

    private static final List<RosterMember> MEMBERS = Roster.defaultRoster().members();
    private static final int WRITERS = 20;
    private static final int READERS = 4;
    private static final Duration RUN_FOR = Duration.ofSeconds(3);

    @TempDir
    Path dir;

    @Test
    void writersAndReadersTogetherLoseNothingAndNeverSeeALock() throws Exception {
        Path file = ScratchRegistry.migratedIn(dir);
        Queue<String> failures = new ConcurrentLinkedQueue<>();
        Map<Long, Registration> lastRegistered = new ConcurrentHashMap<>();
        Map<Long, Instant> lastHeartbeat = new ConcurrentHashMap<>();
        AtomicInteger reads = new AtomicInteger();
        Instant deadline = Instant.now().plus(RUN_FOR);
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS + READERS);
        CountDownLatch start = new CountDownLatch(1);

        for (int i = 0; i < WRITERS; i++) {
            long pid = 45000 + i;
            RosterMember member = MEMBERS.get(i % MEMBERS.size());
            pool.submit(() -> guarded(failures, () -> {
                // Retention runs on every registration, measured from a clock near the registrations.
                SqliteRegistryWriter writer = new SqliteRegistryWriter(file, () -> RowBuilder.REGISTERED, SqliteRegistryWriter.DEFAULT_BUSY_TIMEOUT);
                start.await();
                int generation = 0;
                while (Instant.now().isBefore(deadline) || generation == 0) {
                    // A restart on the same pid: a new runtime id replaces the old row.
                    Instant registered = RowBuilder.REGISTERED.plusSeconds(generation);
                    String runtimeId = "rt-" + pid + "-" + generation++;
                    Registration registration = RowBuilder.registered(member, pid)
                            .with(r -> r.runtimeId = runtimeId).at(registered).registration();
                    writer.register(registration, Optional.of(RegistryWriter.DEFAULT_RETENTION));
                    lastRegistered.put(pid, registration);
                    lastHeartbeat.put(pid, registered);
                    for (int beat = 1; beat <= 5; beat++) {
                        Instant at = registered.plusMillis(beat);
                        if (!writer.heartbeat(runtimeId, at)) {
                            failures.add("heartbeat found no row for " + runtimeId);
                        }
                        lastHeartbeat.put(pid, at);
                    }
                }
                return null;
            }));
        }
        for (int i = 0; i < READERS; i++) {
            pool.submit(() -> guarded(failures, () -> {
                SqliteRegistryReader reader = new SqliteRegistryReader(file);
                start.await();
                while (Instant.now().isBefore(deadline)) {
                    RegistryRead read = reader.readAll();
                    reads.incrementAndGet();
                    if (!read.readable()) {
                        failures.add("read failed: " + ((RegistryRead.Unreadable) read).reason());
                    } else if (read.rows().stream().anyMatch(row -> !(row.interpret() instanceof Registration))) {
                        failures.add("a malformed row was read: " + read.rows());
                    }
                }
                return null;
            }));
        }
        start.countDown();
        pool.shutdown();
        assertTrue(pool.awaitTermination(2, TimeUnit.MINUTES), "workers finished");

        assertEquals(List.of(), new ArrayList<>(failures));
        assertTrue(reads.get() > 0, "readers ran");
        Map<Long, RegistryRow> expected = new TreeMap<>();
        lastRegistered.forEach((pid, registration) ->
                expected.put(pid, registration.withLastHeartbeatAt(lastHeartbeat.get(pid)).toRow()));
        Map<Long, RegistryRow> stored = new TreeMap<>();
        new SqliteRegistryReader(file).readAll().rows().forEach(row -> stored.put(row.pid(), row));
        assertEquals(WRITERS, expected.size());
        assertEquals(expected, stored, "each server's last registration and heartbeat, nothing else");
    }

    @Test
    void serversStartedTogetherOnAFreshFileAllRegister() throws Exception {
        Path file = dir.resolve("fresh/control_plane.sqlite3");
        Queue<String> failures = new ConcurrentLinkedQueue<>();
        ExecutorService pool = Executors.newFixedThreadPool(MEMBERS.size());
        CountDownLatch start = new CountDownLatch(1);
        for (int i = 0; i < MEMBERS.size(); i++) {
            Registration registration = RowBuilder.registered(MEMBERS.get(i), 46000 + i).registration();
            pool.submit(() -> guarded(failures, () -> {
                SqliteRegistryWriter writer = new SqliteRegistryWriter(file);
                start.await();
                writer.register(registration, Optional.empty());
                return null;
            }));
        }
        start.countDown();
        pool.shutdown();
        assertTrue(pool.awaitTermination(2, TimeUnit.MINUTES), "workers finished");

        assertEquals(List.of(), new ArrayList<>(failures));
        assertEquals(MEMBERS.size(), new SqliteRegistryReader(file).readAll().rows().size());
        assertEquals(7, RawSqlite.userVersion(file));
    }

    private interface Work {
        Void run() throws Exception;
    }

    private static Void guarded(Queue<String> failures, Work work) {
        try {
            work.run();
        } catch (Throwable e) {
            failures.add(e.toString());
        }
        return null;
    }
}
