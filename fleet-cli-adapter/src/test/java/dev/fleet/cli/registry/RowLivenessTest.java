package dev.fleet.cli.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.Lease;
import dev.fleet.domain.ListingReason;
import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.ProcessObservation;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Timestamps;
import dev.fleet.domain.port.out.ProcessObserver;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Issue 48: {@code registry list} judged a row of another host by a pid of this one, which names some
 * unrelated process here or none. A remote row is alive while its lease holds, by the registry's clock;
 * only this host's rows are looked up in the process table.
 */
class RowLivenessTest {

    private static final String HERE = "host-here";
    private static final String THERE = "host-there";
    private static final RosterMember RECONCILER = Roster.defaultRoster().memberByProfile("prgs-reconciler")
            .orElseThrow();
    /** The registry's clock at the read: two minutes after the rows registered. */
    private static final Instant REGISTRY_NOW = RowBuilder.REGISTERED.plus(Duration.ofMinutes(2));

    /** An observer that sees {@code alive} and records which pids it was asked about. */
    private static final class Observer implements ProcessObserver {
        final Set<Long> alive;
        final List<Set<Long>> asked = new ArrayList<>();

        Observer(Set<Long> alive) {
            this.alive = alive;
        }

        @Override
        public ProcessObservation observe(List<String> patterns, Set<Long> registeredPids, boolean ancestors) {
            asked.add(registeredPids);
            return ProcessObservation.of("boot", "host", "pid:[1]", alive.stream()
                    .map(pid -> new ObservedProcess(pid, RowBuilder.REGISTERED, "fleet.jar serve", "me", false))
                    .toList());
        }
    }

    private static RegistryRow row(long pid, String hostId, Duration heartbeatAgo) {
        RowBuilder row = RowBuilder.registered(RECONCILER, pid);
        row.hostId = hostId;
        row.lastHeartbeatAt = Timestamps.format(REGISTRY_NOW.minus(heartbeatAgo));
        return row.build();
    }

    private static RowLiveness judge(List<RegistryRow> rows, Observer observer) {
        // The answerer's clock an hour off: a remote row's lease is judged by the registry's clock only.
        return RowLiveness.of(RegistryRead.of(rows, REGISTRY_NOW), HERE, Lease.DEFAULT,
                REGISTRY_NOW.plus(Duration.ofHours(1)), observer);
    }

    @Test
    void aRemoteRowIsAliveByItsLeaseWhateverThisHostsPidsSay() {
        RegistryRow freshOnADeadPid = row(4001, THERE, Duration.ofSeconds(10));
        RegistryRow lapsedOnALivePid = row(4002, THERE, Duration.ofSeconds(100));
        Observer observer = new Observer(Set.of(4002L));

        RowLiveness liveness = judge(List.of(freshOnADeadPid, lapsedOnALivePid), observer);

        assertEquals("yes", liveness.of(freshOnADeadPid));
        assertEquals("no", liveness.of(lapsedOnALivePid));
        assertTrue(observer.asked.isEmpty(), "no remote pid is looked up here: " + observer.asked);
    }

    @Test
    void aRowOfThisHostOrOfNoRecordedHostIsAliveByItsPid() {
        RegistryRow here = row(5001, HERE, Duration.ofHours(5));
        RegistryRow unknownHost = row(5002, null, Duration.ZERO);
        RegistryRow remote = row(5003, THERE, Duration.ZERO);
        Observer observer = new Observer(Set.of(5001L));

        RowLiveness liveness = judge(List.of(here, unknownHost, remote), observer);

        assertEquals("yes", liveness.of(here), "a stale heartbeat does not matter where the pid can be seen");
        assertEquals("no", liveness.of(unknownHost));
        assertEquals(List.of(Set.of(5001L, 5002L)), observer.asked, "only this host's pids are looked up");
    }

    @Test
    void aStoppedRowIsNotRunningAndAnUnreadableProcessTableIsUnknownForLocalRowsOnly() {
        RowBuilder stopped = RowBuilder.registered(RECONCILER, 6001);
        stopped.status = "stopped";
        RegistryRow local = row(6002, HERE, Duration.ZERO);
        RegistryRow remote = row(6003, THERE, Duration.ZERO);
        ProcessObserver blind = (patterns, pids, ancestors) -> ProcessObservation.unavailable(
                ListingReason.PERMISSION_DENIED, null, null, null);

        RowLiveness liveness = RowLiveness.of(RegistryRead.of(List.of(stopped.build(), local, remote), REGISTRY_NOW),
                HERE, Lease.DEFAULT, REGISTRY_NOW, blind);

        assertEquals("-", liveness.of(stopped.build()));
        assertEquals("?", liveness.of(local));
        assertEquals("yes", liveness.of(remote));
        assertFalse(liveness.remote(local));
        assertTrue(liveness.remote(remote));
    }

    @Test
    void withoutTheRegistrysClockTheAnswerersStandsIn() {
        RegistryRow remote = row(7001, THERE, Duration.ofSeconds(80));

        RowLiveness onTime = RowLiveness.of(RegistryRead.of(List.of(remote)), HERE, Lease.DEFAULT, REGISTRY_NOW,
                new Observer(Set.of()));
        RowLiveness late = RowLiveness.of(RegistryRead.of(List.of(remote)), HERE, Lease.DEFAULT,
                REGISTRY_NOW.plus(Duration.ofSeconds(20)), new Observer(Set.of()));

        assertEquals("yes", onTime.of(remote));
        assertEquals("no", late.of(remote));
    }
}
