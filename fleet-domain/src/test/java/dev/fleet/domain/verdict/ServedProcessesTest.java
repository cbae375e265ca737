package dev.fleet.domain.verdict;

import static dev.fleet.domain.Scenario.member;
import static dev.fleet.domain.verdict.ClassifierExamples.codes;
import static dev.fleet.domain.verdict.WrappedFleet.SERVER_STARTED;
import static dev.fleet.domain.verdict.WrappedFleet.USER;
import static dev.fleet.domain.verdict.WrappedFleet.instanceOf;
import static dev.fleet.domain.verdict.WrappedFleet.serverCommand;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Scenario;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Served processes (docs/CONTRACT.md, "Wrapped servers"), case by case. */
class ServedProcessesTest {

    private static List<Long> unregistered(Verdict verdict) {
        return verdict.unregisteredProcesses().stream().map(UnregisteredProcess::pid).toList();
    }

    @Test
    void fiveMembersWrappingTheirServersOpenTheGateAndListWhatTheyServe() {
        Verdict verdict = WrappedFleet.five().classify();

        assertEquals(List.of(), codes(verdict));
        assertEquals(5, verdict.runningMemberCount());
        Instance author = instanceOf(verdict, "author");
        assertEquals(List.of(5100L), author.servedPids());
        assertEquals(5100L, author.serverPid());
        assertEquals("python3 /srv/gitea_mcp.py --profile prgs-author --token ***", author.serverCommand());
        assertEquals(10, verdict.processListing().serverProcessCount(), "served processes are server processes");
    }

    /** The operator added a pattern for their server: a copy started by hand is served by nothing. */
    @Test
    void theSameServerStartedWithoutFleetIsAnUnregisteredProcess() {
        Verdict verdict = WrappedFleet.five()
                .process(6000, 1L, SERVER_STARTED, serverCommand("prgs-author"), USER).classify();

        assertEquals(List.of("unregistered_process"), codes(verdict));
        assertEquals(List.of(6000L), unregistered(verdict));
        assertEquals(UnregisteredReason.NO_REGISTRATION, verdict.unregisteredProcesses().get(0).reason());
    }

    /** An npx or sh -c wrapper between the member and its server: what runs below the server is served too. */
    @Test
    void everyServerLookingProcessBelowTheServerIsServed() {
        Scenario scenario = WrappedFleet.five()
                .process(7001, 5100L, SERVER_STARTED.plusMillis(5), "sh -c helper", USER)
                .process(7000, 7001L, SERVER_STARTED.plusMillis(9), serverCommand("prgs-author") + " --worker", USER);

        Verdict verdict = scenario.classify();

        assertTrue(verdict.mutationGateSatisfied(), () -> codes(verdict).toString());
        assertEquals(List.of(5100L, 7000L), instanceOf(verdict, "author").servedPids(), "sorted");
    }

    @Test
    void aProcessOfAnotherOwnerThanTheServerIsNotServed() {
        Verdict verdict = WrappedFleet.five()
                .process(7000, 5100L, SERVER_STARTED.plusMillis(9), serverCommand("prgs-author") + " --worker", "root")
                .classify();

        assertEquals(List.of(7000L), unregistered(verdict));
        assertEquals(List.of(5100L), instanceOf(verdict, "author").servedPids());
    }

    /** Its parent's pid names a process that started after it: a recycled pid, no parent. */
    @Test
    void aParentThatStartedAfterItsChildIsNoParent() {
        Scenario scenario = WrappedFleet.five();
        scenario.processes.removeIf(process -> process.pid() == 5100);
        scenario.process(5100, 4100L, SERVER_STARTED.plusSeconds(30), serverCommand("prgs-author"), USER)
                .process(7000, 5100L, SERVER_STARTED, serverCommand("prgs-author") + " --worker", USER);
        scenario.rows.replaceAll(row -> row.pid() == 4100
                ? RowBuilder.from(row).with(r -> r.serverStartedAt = null).build() : row);

        Verdict verdict = scenario.classify();

        assertEquals(List.of(7000L), unregistered(verdict));
    }

    @Test
    void aChainLongerThanTheBoundReachesNoServer() {
        Scenario scenario = WrappedFleet.five();
        long parent = 5100;
        for (int generation = 0; generation <= ObservedProcess.MAX_ANCESTRY; generation++) {
            scenario.process(8000 + generation, parent, SERVER_STARTED.plusMillis(generation + 1), "sh -c next", USER);
            parent = 8000 + generation;
        }
        long deep = parent;
        scenario.process(9000, deep, SERVER_STARTED.plusSeconds(1), serverCommand("prgs-author") + " --deep", USER);

        Verdict verdict = scenario.classify();

        assertEquals(List.of(9000L), unregistered(verdict));
    }

    /** Unverified and stale rows serve nothing: their servers' processes are strays. */
    @Test
    void onlyALiveRegistrationServes() {
        Scenario unknownStart = WrappedFleet.five();
        unknownStart.processes.replaceAll(process -> process.pid() == 4100
                ? new ObservedProcess(4100, null, process.commandLine(), USER, true) : process);
        Verdict unverified = unknownStart.classify();
        assertEquals(List.of("process_start_unknown"), ClassifierExamples.reasons(unverified.unverifiedRegistrations()));
        assertEquals(List.of(5100L), unregistered(unverified));

        Scenario reused = WrappedFleet.five();
        reused.processes.replaceAll(process -> process.pid() == 4100 ? new ObservedProcess(4100,
                RowBuilder.REGISTERED.plusSeconds(60), process.commandLine(), USER, true) : process);
        Verdict stale = reused.classify();
        assertEquals(List.of("pid_reused"), ClassifierExamples.reasons(stale.staleRegistrations()));
        assertTrue(unregistered(stale).containsAll(List.of(4100L, 5100L)), () -> unregistered(stale).toString());
    }

    /** Two live rows claiming one server: one of them is wrong, so neither serves it. */
    @Test
    void aServerPidTwoLiveRowsRecordServesNothing() {
        Scenario scenario = WrappedFleet.five();
        scenario.rows.replaceAll(row -> row.pid() == 4101
                ? RowBuilder.from(row).with(r -> r.serverPid = 5100L).build() : row);
        scenario.processes.removeIf(process -> process.pid() == 5101);

        Verdict verdict = scenario.classify();

        assertEquals(List.of(5100L), unregistered(verdict));
        assertEquals(List.of(), instanceOf(verdict, "author").servedPids());
    }

    /** The verdict masks a command line's secrets, whoever wrote it: the process table, another tool's row. */
    @Test
    void commandLinesAreShownWithTheirSecretsMasked() {
        Scenario scenario = WrappedFleet.five()
                .process(6000, 1L, SERVER_STARTED, serverCommand("prgs-author") + " --api-key=abc123", USER);
        scenario.rows.replaceAll(row -> row.pid() == 4100
                ? RowBuilder.from(row).with(r -> r.serverCommand = "python3 gitea_mcp.py --token abc123").build() : row);

        Verdict verdict = scenario.classify();

        assertEquals(serverCommand("prgs-author") + " --api-key=***", verdict.unregisteredProcesses().get(0).commandLine());
        assertEquals("python3 gitea_mcp.py --token ***", instanceOf(verdict, "author").serverCommand());
        assertFalse(VerdictDocument.canonicalJson(verdict).contains("abc123"));
    }

    @Test
    void aMemberWrappingNothingShowsNoServer() {
        Instance plain = instanceOf(Scenario.healthyFive().classify(), "author");
        assertEquals(null, plain.serverPid());
        assertEquals(null, plain.serverCommand());
        assertEquals(List.of(), plain.servedPids());
    }

    /** A row another tool wrote names the server by a pid that is no process: unknown, so it serves nothing. */
    @Test
    void aServerPidThatNamesNoProcessIsUnknown() {
        Scenario scenario = WrappedFleet.five();
        scenario.rows.replaceAll(row -> row.pid() == 4100
                ? RowBuilder.from(row).with(r -> r.serverPid = -5100L).build() : row);

        Verdict verdict = scenario.classify();

        assertEquals(List.of(5100L), unregistered(verdict));
        assertEquals(null, instanceOf(verdict, "author").serverPid());
        assertEquals(5, verdict.runningMemberCount());
    }

    static RegistryRow selfRegistration(String role, long pid) {
        return RowBuilder.registered(member(role), pid).with(r -> r.runtimeId = "rt-python-" + pid).build();
    }
}
