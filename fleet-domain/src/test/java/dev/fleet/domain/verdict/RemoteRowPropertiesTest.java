package dev.fleet.domain.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.fleet.domain.HostId;
import dev.fleet.domain.Lease;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Snapshot;
import dev.fleet.domain.Timestamps;
import dev.fleet.domain.verdict.encoding.CanonicalJson;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Rule 0 (docs/CONTRACT.md, "Many hosts") over generated fleets: a registry holding only this host's rows gives
 * exactly the verdict it gave before hosts were recorded, and a row of another host can close a gate
 * but never open one, nor change what the local rows are.
 */
class RemoteRowPropertiesTest {

    private static final String HERE = HostId.fromHostname("here");
    private static final List<String> OTHER_HOSTS = List.of(HostId.fromHostname("there"), HostId.fromHostname("far"));

    /** The whole document but the observation (which now names the answerer's host). */
    private static String withoutObservation(Verdict verdict) {
        Map<String, Object> tree = new LinkedHashMap<>(VerdictDocument.toTree(verdict));
        tree.remove("observation");
        return CanonicalJson.encode(tree);
    }

    private static Snapshot onHost(Snapshot snapshot, List<RegistryRow> rows, Lease lease, Instant registryClock) {
        RegistryRead registry = snapshot.registry().readable() ? RegistryRead.of(rows, registryClock)
                : snapshot.registry();
        return new Snapshot(snapshot.roster(), registry, snapshot.observation(), snapshot.observedAt(),
                snapshot.registryPath(), snapshot.answeredBy(), HERE, lease);
    }

    private static Lease anyLease(Random random) {
        return new Lease(Duration.ofSeconds(1 + random.nextInt(600)));
    }

    private static Instant anyClock(Random random, Instant observedAt) {
        return random.nextBoolean() ? null : observedAt.plusSeconds(random.nextInt(7_200) - 3_600);
    }

    @Test
    void withOnlyLocalRowsEveryVerdictEqualsTodays() {
        qt().forAll(FleetGen.fleets(), longs().all()).checkAssert((snapshot, seed) -> {
            Random random = new Random(seed);
            List<RegistryRow> local = snapshot.registry().rows().stream()
                    .map(row -> RowBuilder.from(row).with(r -> r.hostId = random.nextBoolean() ? HERE : null).build())
                    .toList();
            Verdict today = FleetClassifier.classify(snapshot);
            Verdict withHosts = FleetClassifier.classify(
                    onHost(snapshot, local, anyLease(random), anyClock(random, snapshot.observedAt())));
            assertEquals(today.verdictDigest(), withHosts.verdictDigest());
            assertEquals(withoutObservation(today), withoutObservation(withHosts));
        });
    }

    @Test
    void aRemoteRowCanCloseAGateButNeverOpenOne() {
        qt().forAll(FleetGen.fleets(), longs().all()).checkAssert((snapshot, seed) -> {
            Random random = new Random(seed);
            Lease lease = anyLease(random);
            Instant clock = anyClock(random, snapshot.observedAt());
            List<RegistryRow> rows = new ArrayList<>(snapshot.registry().rows());
            Verdict before = FleetClassifier.classify(onHost(snapshot, rows, lease, clock));
            int added = 1 + random.nextInt(4);
            for (int i = 0; i < added; i++) {
                rows.add(remoteRow(snapshot, random, i));
            }
            Verdict after = FleetClassifier.classify(onHost(snapshot, rows, lease, clock));

            if (!before.mutationGateSatisfied()) {
                assertFalse(after.mutationGateSatisfied());
            }
            assertEquals(before.members(), after.members());
            assertEquals(before.unexpectedMembers(), after.unexpectedMembers());
            assertEquals(before.unverifiedRegistrations(), after.unverifiedRegistrations());
            assertEquals(before.malformedRegistrations(), after.malformedRegistrations());
            assertEquals(before.unregisteredProcesses(), after.unregisteredProcesses());
        });
    }

    /** A row of another host: any member or none, any binding, on a pid that may also be a local one's. */
    private static RegistryRow remoteRow(Snapshot snapshot, Random random, int index) {
        List<RosterMember> members = snapshot.roster().members();
        RosterMember member = random.nextInt(4) == 0 ? new RosterMember("gitea-visitor", "prgs-visitor", "visitor")
                : members.get(random.nextInt(members.size()));
        List<RegistryRow> local = snapshot.registry().rows();
        Long localPid = local.isEmpty() ? null : local.get(random.nextInt(local.size())).pid();
        // Half the time a local row's pid (when it is a valid one): another host's pid names nothing here.
        long pid = random.nextBoolean() && localPid != null && localPid > 0 && localPid <= RegistryRow.MAX_PID
                ? localPid : 7_000 + random.nextInt(100);
        Instant heartbeat = snapshot.observedAt().minusSeconds(random.nextInt(1_200) - 60);
        return RowBuilder.row(member, pid).with(r -> {
            r.runtimeId = "remote-" + index;
            r.hostId = OTHER_HOSTS.get(random.nextInt(OTHER_HOSTS.size()));
            r.repo = random.nextInt(3) == 0 ? "Other-Repo" : r.repo;
            r.status = random.nextInt(4) == 0 ? "stopped" : "running";
            r.stoppedAt = "stopped".equals(r.status) ? Timestamps.format(heartbeat) : null;
            r.cohortId = random.nextBoolean() ? null : "ppid:" + random.nextInt(3);
            r.registeredAt = Timestamps.format(heartbeat.minusSeconds(random.nextInt(600)));
            r.lastHeartbeatAt = Timestamps.format(heartbeat);
        }).build();
    }
}
