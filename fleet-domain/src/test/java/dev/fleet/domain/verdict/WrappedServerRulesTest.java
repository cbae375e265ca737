package dev.fleet.domain.verdict;

import static dev.fleet.domain.verdict.ClassifierExamples.codes;
import static dev.fleet.domain.verdict.ClassifierExamples.reasons;
import static dev.fleet.domain.verdict.ServedProcessesTest.selfRegistration;
import static dev.fleet.domain.verdict.WrappedFleet.SERVER_STARTED;
import static dev.fleet.domain.verdict.WrappedFleet.USER;
import static dev.fleet.domain.verdict.WrappedFleet.instanceOf;
import static dev.fleet.domain.verdict.WrappedFleet.serverCommand;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Scenario;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The wrapped server's two rules (docs/CONTRACT.md, "Wrapped servers"): a server that registers itself
 * under the member wrapping it is that member, not a second one; a member whose server has exited is
 * stale, {@code server_exited}.
 */
class WrappedServerRulesTest {

    /** The seed's Python server writes its own row: the member still runs once, and lists it. */
    @Test
    void theServersOwnRowIsNoSecondInstance() {
        Scenario scenario = WrappedFleet.five().row(RowBuilder.from(selfRegistration("author", 5100)));

        Verdict verdict = scenario.classify();

        assertEquals(List.of(), codes(verdict));
        assertEquals(5, verdict.runningMemberCount());
        assertEquals(List.of(), verdict.duplicateMembers());
        Instance author = instanceOf(verdict, "author");
        assertEquals(4100, author.pid(), "the member is the fleet process");
        assertEquals(List.of(5100L), author.servedPids());
        assertEquals(List.of(), verdict.unexpectedMembers());
    }

    /** Naming another member, the server's row is judged as usual: a second reviewer. */
    @Test
    void theServersOwnRowNamingAnotherMemberIsJudgedAsUsual() {
        Scenario scenario = WrappedFleet.five().row(RowBuilder.from(selfRegistration("reviewer", 5100)));

        Verdict verdict = scenario.classify();

        assertEquals(List.of("duplicate_member"), codes(verdict));
        assertEquals(6, verdict.runningMemberCount());
        assertEquals(List.of(5100L), instanceOf(verdict, "author").servedPids(), "still the author's process");
    }

    /** Its own row does not make a process served: a server no member wraps, registered, is an instance. */
    @Test
    void aSelfRegisteredServerNoMemberWrapsIsAnInstanceAsBefore() {
        Scenario scenario = WrappedFleet.five()
                .process(6000, 1L, SERVER_STARTED, serverCommand("prgs-author"), USER)
                .row(RowBuilder.from(selfRegistration("author", 6000)));

        Verdict verdict = scenario.classify();

        assertEquals(List.of("duplicate_member"), codes(verdict));
        assertEquals(List.of(), verdict.unregisteredProcesses());
    }

    @Test
    void aMemberWhoseServerHasExitedIsStaleAndNotRunning() {
        Scenario scenario = WrappedFleet.five().removeProcess(5100);

        Verdict verdict = scenario.classify();

        assertEquals(List.of("server_exited"), reasons(verdict.staleRegistrations()));
        assertEquals(4100, verdict.staleRegistrations().get(0).instance().pid());
        assertEquals(5100L, verdict.staleRegistrations().get(0).instance().serverPid());
        assertEquals(4, verdict.runningMemberCount());
        assertEquals(List.of("unregistered_process", "missing_member"), codes(verdict),
                "its fleet process, still there, has no live row");
        assertEquals(List.of(4100L), verdict.unregisteredProcesses().stream().map(UnregisteredProcess::pid).toList());
    }

    /** A process now on the server's pid that started more than 1 s away from the recorded start is another. */
    @Test
    void aRecycledServerPidIsAnExitedServer() {
        Scenario scenario = WrappedFleet.five().removeProcess(5100)
                .process(5100, 1L, SERVER_STARTED.plusSeconds(40), "bash", USER);

        assertEquals(List.of("server_exited"), reasons(scenario.classify().staleRegistrations()));
        Scenario close = WrappedFleet.five().removeProcess(5100)
                .process(5100, 4100L, SERVER_STARTED.plusMillis(900), serverCommand("prgs-author"), USER);
        assertTrue(close.classify().mutationGateSatisfied(), "within 1 s: the same process, read a tick apart");
    }

    /** Without a recorded start, any live process on the pid is taken for the server; one of unknown start is not. */
    @Test
    void theServersStartIsCheckedOnlyWhereRecorded() {
        Scenario unrecorded = WrappedFleet.five().removeProcess(5100)
                .process(5100, 4100L, SERVER_STARTED.plusSeconds(40), serverCommand("prgs-author"), USER);
        unrecorded.rows.replaceAll(row -> row.pid() == 4100
                ? RowBuilder.from(row).with(r -> r.serverStartedAt = null).build() : row);
        assertEquals(List.of(), reasons(unrecorded.classify().staleRegistrations()));

        Scenario unknown = WrappedFleet.five();
        unknown.processes.replaceAll(process -> process.pid() == 5100
                ? new ObservedProcess(5100, null, process.commandLine(), USER, true, 4100L) : process);
        assertEquals(List.of("server_exited"), reasons(unknown.classify().staleRegistrations()));
    }

    /** server_exited comes after rule 5: a recycled fleet pid is pid_reused, whatever its server does. */
    @Test
    void serverExitedIsCheckedAfterPidReused() {
        Scenario scenario = WrappedFleet.five().removeProcess(5100);
        scenario.processes.replaceAll(process -> process.pid() == 4100 ? new ObservedProcess(4100,
                RowBuilder.REGISTERED.plusSeconds(60), process.commandLine(), USER, true) : process);

        Verdict verdict = scenario.classify();

        assertEquals(List.of("pid_reused"), reasons(verdict.staleRegistrations()));
        assertFalse(verdict.mutationGateSatisfied());
    }
}
