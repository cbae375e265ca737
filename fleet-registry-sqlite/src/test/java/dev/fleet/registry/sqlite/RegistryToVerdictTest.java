package dev.fleet.registry.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.ProcessObservation;
import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.Snapshot;
import dev.fleet.domain.port.out.RegistryWriter;
import dev.fleet.domain.verdict.FleetClassifier;
import dev.fleet.domain.verdict.MemberReport;
import dev.fleet.domain.verdict.MemberState;
import dev.fleet.domain.verdict.Verdict;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Registry rows feed the classifier without reshaping: what the writer stores, the reader hands over whole. */
class RegistryToVerdictTest {

    @TempDir
    Path dir;

    @Test
    void theRegisteredDefaultFleetClassifiesAsCompleteAndSatisfied() {
        Path file = ScratchRegistry.in(dir);
        Roster roster = Roster.defaultRoster();
        // Retention is measured from the writer's clock: registrations are an hour old here.
        SqliteRegistryWriter writer = new SqliteRegistryWriter(file, () -> RowBuilder.REGISTERED.plusSeconds(3600),
                SqliteRegistryWriter.DEFAULT_BUSY_TIMEOUT);
        List<ObservedProcess> processes = new ArrayList<>();
        long pid = 47000;
        for (RosterMember member : roster.members()) {
            Registration stored = writer.register(RowBuilder.registered(member, pid).registration(),
                    Optional.of(RegistryWriter.DEFAULT_RETENTION));
            // Each process started a little before it registered, as a real server does, and looks
            // like one to the default patterns.
            String commandLine = "java -jar /opt/fleet/fleet.jar serve --profile " + member.profile();
            processes.add(new ObservedProcess(pid, stored.process().startedAt(), commandLine, "fleet", true));
            pid++;
        }
        SqliteRegistryReader reader = new SqliteRegistryReader(file);
        RegistryRead read = reader.readAll();
        ProcessObservation observation = ProcessObservation.of(RowBuilder.BOOT, "fleet-host", RowBuilder.PID_NAMESPACE,
                processes);

        Verdict verdict = FleetClassifier.classify(new Snapshot(roster, read, observation,
                Instant.parse("2026-07-28T03:00:00Z"), reader.location(), null));

        assertEquals(List.of(), verdict.blockedReasons());
        assertTrue(verdict.inventoryComplete());
        assertTrue(verdict.mutationGateSatisfied());
        assertEquals(5, verdict.runningMemberCount());
        assertEquals(5, verdict.expectedMemberCount());
        assertEquals(List.of(MemberState.RUNNING, MemberState.RUNNING, MemberState.RUNNING, MemberState.RUNNING,
                MemberState.RUNNING), verdict.members().stream().map(MemberReport::state).toList());
        assertEquals(Boolean.TRUE, verdict.singleCohort());
        assertEquals(Boolean.TRUE, verdict.singleRevision());
        assertEquals(5, verdict.registry().registrationCount());
    }
}
