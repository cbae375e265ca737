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
import dev.fleet.domain.Timestamps;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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
        scenario.rows.replaceAll(row -> row.pid() == 4100 ? RowBuilder.from(row)
                .with(r -> r.serverStartedAt = Timestamps.format(SERVER_STARTED.plusSeconds(30))).build() : row);

        Verdict verdict = scenario.classify();

        assertEquals(List.of(7000L), unregistered(verdict));
        assertEquals(List.of(5100L), instanceOf(verdict, "author").servedPids(), "the server itself is served");
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

    /** A row naming another member's server as its own serves nothing of it: that server is not its child. */
    @Test
    void aRowNamingAnotherRowsServerDoesNotTakeItOver() {
        Scenario scenario = WrappedFleet.five()
                .process(6000, 5100L, SERVER_STARTED.plusMillis(9), serverCommand("prgs-author") + " --worker", USER);
        scenario.rows.replaceAll(row -> row.pid() == 4101
                ? RowBuilder.from(row).with(r -> r.serverPid = 5100L).build() : row);
        scenario.processes.removeIf(process -> process.pid() == 5101);

        Verdict verdict = scenario.classify();

        assertEquals(List.of(), unregistered(verdict));
        assertEquals(List.of(5100L, 6000L), instanceOf(verdict, "author").servedPids());
        assertEquals(List.of(), instanceOf(verdict, "reviewer").servedPids());
    }

    /**
     * Two live rows on one pid (recorded in two pid namespaces an answerer of unknown namespace cannot tell
     * apart) both naming its child: one of them is wrong, so neither serves it.
     */
    @Test
    void aServerPidTwoLiveRowsRecordServesNothing() {
        Scenario scenario = WrappedFleet.five();
        scenario.pidNamespace = null;
        RegistryRow author = scenario.rows.stream().filter(row -> row.pid() == 4100).findFirst().orElseThrow();
        scenario.rows.add(RowBuilder.from(author).with(r -> {
            r.runtimeId = "rt-author-elsewhere";
            r.pidNamespace = "pid:[4026532999]";
        }).build());

        Verdict verdict = scenario.classify();

        assertEquals(List.of(5100L), unregistered(verdict));
        assertEquals(List.of(), instanceOf(verdict, "author").servedPids());
    }

    /** The client that started the author's member (its row's parent), alive. */
    private static final long CLIENT = 900;
    private static final Instant CLIENT_STARTED = RowBuilder.REGISTERED.minusSeconds(60);

    /**
     * One edited column never makes a process "the server" (docs/CONTRACT.md, "Wrapped servers"): the author's
     * row names as its server the client that started it, init, itself, a process that is not its child, its
     * child with a start more than 1 s off, or its child with no start recorded. A copy of the server started
     * below the process it names is a stray, and closes the gate.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            the client (its row's parent)      | 900  | 2026-07-28T01:59:00.250Z | 900  | true
            init, no start recorded            | 1    |                          | 1    | true
            init, its start recorded           | 1    | 2026-07-28T00:00:00Z     | 1    | true
            its own pid                        | 4100 | 2026-07-28T01:59:58.500Z | 4100 | true
            a process that is not its child    | 6100 | 2026-07-28T01:59:58.800Z | 6100 | true
            its child, no start recorded       | 5100 |                          | 5100 | true
            its child, started 1.001 s off     | 5100 | 2026-07-28T01:59:57.799Z | 5100 | false
            """)
    void aSpoofedServerPidServesNothing(String spoof, long serverPid, String serverStartedAt, long strayParent,
            boolean rowStaysLive) {
        Scenario scenario = WrappedFleet.five()
                .process(CLIENT, null, CLIENT_STARTED, "claude", USER)
                .process(1, null, Instant.parse("2026-07-28T00:00:00Z"), "/sbin/init", USER)
                .process(6100, 1L, SERVER_STARTED, "sh -c helper", USER)
                .process(6000, strayParent, SERVER_STARTED.plusSeconds(5), serverCommand("prgs-author"), USER);
        scenario.rows.replaceAll(row -> row.pid() == 4100 ? RowBuilder.from(row).parent(CLIENT, CLIENT_STARTED)
                .with(r -> {
                    r.serverPid = serverPid;
                    r.serverStartedAt = serverStartedAt;
                }).build() : row);

        Verdict verdict = scenario.classify();

        assertTrue(unregistered(verdict).contains(6000L), () -> spoof + ": " + unregistered(verdict));
        assertFalse(verdict.mutationGateSatisfied());
        assertEquals(rowStaysLive ? 5 : 4, verdict.runningMemberCount(), "the spoofing row is judged as before");
        if (rowStaysLive) {
            assertEquals(List.of(), instanceOf(verdict, "author").servedPids());
        }
    }

    /** The child's start read up to 1 s off the recorded one is still that child (the OS rounds to clock ticks). */
    @Test
    void theChildStartedWithinOneSecondOfTheRecordedStartServes() {
        Scenario scenario = WrappedFleet.five();
        scenario.rows.replaceAll(row -> row.pid() == 4100 ? RowBuilder.from(row)
                .with(r -> r.serverStartedAt = Timestamps.format(SERVER_STARTED.minusSeconds(1))).build() : row);

        Verdict verdict = scenario.classify();

        assertEquals(List.of(), unregistered(verdict));
        assertEquals(List.of(5100L), instanceOf(verdict, "author").servedPids());
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

    /**
     * A row another tool wrote names the server by a pid that is no process (or by a value the registry
     * adapters read as -1): it serves nothing, and the server it names has exited, so the member is not
     * running. Read as unknown, it had counted as a plain member and opened the gate.
     */
    @Test
    void aServerPidThatNamesNoProcessIsAServerThatExited() {
        Scenario scenario = WrappedFleet.five();
        scenario.rows.replaceAll(row -> row.pid() == 4100
                ? RowBuilder.from(row).with(r -> r.serverPid = -5100L).build() : row);

        Verdict verdict = scenario.classify();

        assertEquals(List.of(4100L, 5100L), unregistered(verdict), "the member's row is stale, so neither is registered");
        assertEquals(4, verdict.runningMemberCount());
        assertFalse(verdict.mutationGateSatisfied());
        assertTrue(verdict.staleRegistrations().stream().anyMatch(stale -> stale.reason().code().equals("server_exited")),
                verdict.staleRegistrations()::toString);
    }

    static RegistryRow selfRegistration(String role, long pid) {
        return RowBuilder.registered(member(role), pid).with(r -> r.runtimeId = "rt-python-" + pid).build();
    }
}
