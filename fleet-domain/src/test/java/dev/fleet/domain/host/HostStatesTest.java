package dev.fleet.domain.host;

import static dev.fleet.domain.host.HostFixture.entry;
import static dev.fleet.domain.host.HostFixture.server;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** One example of each state of §14, and of what is left out. */
class HostStatesTest {

    private static final ConfiguredServer GITHUB = entry(ClientKind.CLAUDE_CODE, "github", "npx", "-y", "@mcp/github");
    private static final ConfiguredServer FILES = entry(ClientKind.CLAUDE_CODE, "files", "uvx", "mcp-files");

    /** Claude Code (pid 1000) holding the pipes 11 to 14. */
    private static HostFixture claude() {
        return new HostFixture().withInit().configure(GITHUB).configure(FILES)
                .client(1000, 900, 1000, Set.of(11L, 12L, 13L, 14L), "claude")
                .byHand(900, 500, 900, "-bash");
    }

    /** Another user's servers are no server of this user's configuration: theirs to stop, not this report's. */
    @Test
    void anotherUsersProcessesAreNoServersOfThisUsersEntries() {
        HostFixture host = claude().process(HostFixture.OWN_PID, 900, 9_000, 0, "java", "-jar", "fleet.jar", "host");
        host.add(new HostProcess(3000, 1, 3000, 3000, 0, 2_000, HostFixture.at(2_000), List.of("root-claude"), true, null,
                false, Set.of(21L, 22L), 4096, true));
        for (long pid : new long[] {3100, 3200}) {
            host.add(new HostProcess(pid, 3000, pid, pid, 0, pid, HostFixture.at(pid), List.of("npx", "-y", "@mcp/github"),
                    false, pid == 3100 ? 21L : 22L, true, Set.of(), 1024, true));
        }
        HostReport report = host.process(1500, 1000, 3_000, 11, "npx", "-y", "@mcp/github")
                .process(2000, 1000, 5_000, 12, "npx", "-y", "@mcp/github").report();

        assertEquals(List.of(1500L, 2000L), report.servers().stream().map(HostServer::rootPid).sorted().toList(),
                "root's two instances, under root's client, are not this user's: " + report.servers());
        assertEquals(1, report.strays());
    }

    @Test
    void theYoungestInstanceIsCurrentAndAnOlderOneAStaleGeneration() {
        HostReport report = claude()
                .process(1500, 1000, 3_000, 11, "npx", "-y", "@mcp/github")
                .process(2000, 1000, 5_000, 12, "/usr/bin/npx", "-y", "@mcp/github")
                .report();

        assertEquals(ServerState.CURRENT, server(report, 2000).state());
        assertNull(server(report, 2000).stop());
        HostServer stale = server(report, 1500);
        assertEquals(ServerState.STALE_GENERATION, stale.state());
        assertEquals("claude-code", stale.clientKind());
        assertEquals(1000L, stale.clientPid());
        assertEquals("github", stale.name());
        assertTrue(stale.stop().contains(" 1500:3000;"), stale.stop());
        assertEquals(1, report.strays());
        assertEquals(List.of(1000L), report.clients().stream().map(HostClient::pid).toList());
        assertEquals("claude-code", report.clients().get(0).kind());
    }

    @Test
    void twoCopiesStartedTogetherMakeTheOlderADuplicate() {
        HostReport report = claude()
                .process(2000, 1000, 5_000, 11, "npx", "-y", "@mcp/github")
                .process(2001, 1000, 5_050, 12, "npx", "-y", "@mcp/github")
                .report();

        assertEquals(ServerState.DUPLICATE, server(report, 2000).state());
        assertEquals(ServerState.CURRENT, server(report, 2001).state());
        assertEquals(1, report.strays());
    }

    /**
     * Two entries of one client with one command, told apart only by their environments (which a look does
     * not read), run an instance each: both current, each reported under both names, no stray; an older
     * third one is the stray. One of them was called a duplicate, and the stop script killed a live server.
     */
    @Test
    void entriesOneArgvMatchesAlikeRunAnInstanceEach() {
        ConfiguredServer work = entry(ClientKind.CLAUDE_CODE, "gh-work", "npx", "-y", "@mcp/github");
        ConfiguredServer personal = entry(ClientKind.CLAUDE_CODE, "gh-personal", "npx", "-y", "@mcp/github");
        HostFixture fixture = new HostFixture().withInit().configure(work).configure(personal)
                .client(1000, 900, 1000, Set.of(11L, 12L, 13L), "claude").byHand(900, 500, 900, "-bash")
                .process(2000, 1000, 5_000, 11, "npx", "-y", "@mcp/github")
                .process(2001, 1000, 5_010, 12, "npx", "-y", "@mcp/github");
        HostReport two = fixture.report();

        assertEquals(ServerState.CURRENT, server(two, 2000).state());
        assertEquals(ServerState.CURRENT, server(two, 2001).state());
        assertEquals("gh-personal, gh-work", server(two, 2000).name());
        assertEquals(0, two.strays());

        HostReport three = fixture.process(1500, 1000, 3_000, 13, "npx", "-y", "@mcp/github").report();
        assertEquals(ServerState.STALE_GENERATION, server(three, 1500).state());
        assertEquals(ServerState.CURRENT, server(three, 2000).state());
        assertEquals(1, three.strays());
    }

    /**
     * Two projects' entries with one command are two clients' each: a client in one loads its project's
     * alone, so two instances under it are a generation and its stray, not an instance of each entry.
     */
    @Test
    void anotherProjectsEntryOfTheSameCommandGivesNoSecondPlace() {
        ConfiguredServer alpha = new ConfiguredServer(ClientKind.CLAUDE_CODE, "/home/u/.claude.json", "github", "/p/a",
                "npx", List.of("-y", "@mcp/github"), List.of(List.of("npx", "-y", "@mcp/github")));
        ConfiguredServer beta = new ConfiguredServer(ClientKind.CLAUDE_CODE, "/home/u/.claude.json", "gh-b", "/p/b",
                "npx", List.of("-y", "@mcp/github"), List.of(List.of("npx", "-y", "@mcp/github")));
        HostReport report = new HostFixture().withInit().configure(alpha).configure(beta)
                .client(1000, 900, 1000, Set.of(11L, 12L), "claude").byHand(900, 500, 900, "-bash")
                .process(1500, 1000, 3_000, 11, "npx", "-y", "@mcp/github")
                .process(2000, 1000, 5_000, 12, "npx", "-y", "@mcp/github")
                .report();

        assertEquals(ServerState.STALE_GENERATION, server(report, 1500).state());
        assertEquals(ServerState.CURRENT, server(report, 2000).state());
        assertEquals(1, report.strays());
    }

    @Test
    void aSecondApartIsAGenerationNotADuplicate() {
        HostReport report = claude()
                .process(2000, 1000, 5_000, 11, "npx", "-y", "@mcp/github")
                .process(2001, 1000, 5_100, 12, "npx", "-y", "@mcp/github")
                .report();

        assertEquals(ServerState.STALE_GENERATION, server(report, 2000).state());
    }

    @Test
    void aServerWhoseClientDiedIsOrphanedWithItsTree() {
        HostReport report = claude()
                .process(3000, 500, 4_000, 31, "npx", "-y", "@mcp/github")
                .process(3001, 3000, 4_010, 31, "node", "/home/u/.npm/_npx/1/github.js")
                .report();

        HostServer orphan = server(report, 3000);
        assertEquals(ServerState.ORPHANED, orphan.state());
        assertNull(orphan.clientPid());
        assertNull(orphan.clientKind());
        assertEquals("github", orphan.name());
        assertEquals(List.of(3000L, 3001L), orphan.pids());
        assertEquals(2048, orphan.memoryBytes());
        assertTrue(orphan.stop().contains(" 3000:4000 3001:4010;"), orphan.stop());
    }

    @Test
    void aServerReparentedToInitIsOrphanedToo() {
        HostReport report = claude().process(3000, 1, 4_000, 31, "npx", "-y", "@mcp/github").report();

        assertEquals(ServerState.ORPHANED, server(report, 3000).state());
    }

    @Test
    void aServerAReaperAdoptedIsTheClientsThatStillFeedsIt() {
        HostReport report = claude().process(3000, 500, 4_000, 12, "npx", "-y", "@mcp/github").report();

        HostServer server = server(report, 3000);
        assertEquals(ServerState.CURRENT, server.state());
        assertEquals(1000L, server.clientPid(), "systemd --user only reaped it; claude holds its pipe");
        assertEquals("claude-code", server.clientKind());
    }

    @Test
    void aSiblingThatLeakedThePipeDoesNotKeepAnOrphanFed() {
        HostReport report = claude()
                .process(3000, 500, 4_000, 31, "npx", "-y", "@mcp/github")
                .add(new HostProcess(3100, 500, 3100, 3100, 1000, 4_001, HostFixture.at(4_001),
                        List.of("uvx", "mcp-files"), false, 32L, true, Set.of(31L), 0, true))
                .report();

        assertEquals(ServerState.ORPHANED, server(report, 3000).state());
        assertEquals(ServerState.ORPHANED, server(report, 3100).state());
    }

    @Test
    void aDescendantThatOutlivedItsWrapperIsALeftoverOfTheEntryWithoutACurrentInstance() {
        HostReport report = claude()
                .process(2000, 1000, 5_000, 12, "npx", "-y", "@mcp/github")
                .process(4000, 500, 4_500, 13, "python", "-m", "mcp_files.server")
                .process(4001, 4000, 4_501, 13, "python", "-m", "mcp_files.worker")
                .report();

        HostServer leftover = server(report, 4000);
        assertEquals(ServerState.LEFTOVER, leftover.state());
        assertEquals(1000L, leftover.clientPid());
        assertEquals("files", leftover.name(), "github has a current instance, files has none");
        assertEquals(List.of(4000L, 4001L), leftover.pids());
        assertNotNull(leftover.stop());
        assertEquals(1, report.strays());
    }

    @Test
    void aLeftoverIsOfNoEntryWhenSeveralLackACurrentInstance() {
        HostReport report = claude().process(4000, 500, 4_500, 13, "python", "-m", "mcp_files.server").report();

        assertNull(server(report, 4000).name());
        assertEquals(ServerState.LEFTOVER, server(report, 4000).state());
    }

    @Test
    void whatAClientRunsBelowItselfIsNeverALeftover() {
        HostReport report = claude()
                .process(4100, 1000, 4_500, 13, "bash", "-c", "make test")
                .process(4101, 4100, 4_501, 13, "make", "test")
                .report();

        assertEquals(List.of(), report.servers());
    }

    @Test
    void aServerStartedFromATerminalIsManualAndNeverAStray() {
        HostReport report = claude()
                .byHand(6000, 900, 6_000, "npx", "-y", "@mcp/github")
                .byHand(6001, 1, 2_000, "npx", "-y", "@mcp/github")
                .report();

        assertEquals(ServerState.MANUAL, server(report, 6000).state());
        assertEquals(ServerState.MANUAL, server(report, 6001).state());
        assertNull(server(report, 6001).stop());
        assertEquals(0, report.strays());
    }

    @Test
    void anMcpLookingProcessOfNoEntryIsShownOnlyWithAll() {
        HostFixture host = claude().process(7000, 1000, 7_000, 14, "python", "-m", "my_mcp_server");

        assertEquals(List.of(), host.report().servers());
        HostServer unconfigured = server(host.reportAll(), 7000);
        assertEquals(ServerState.UNCONFIGURED, unconfigured.state());
        assertEquals(1000L, unconfigured.clientPid());
        assertNull(unconfigured.name());
        assertNull(unconfigured.stop());
        assertEquals(0, host.reportAll().strays());
    }

    @Test
    void theFleetsOwnProcessesAndTheObserverAreLeftOut() {
        HostFixture host = claude()
                .process(8000, 1000, 8_000, 11, "java", "-jar", "/opt/fleet.jar", "serve")
                .process(8001, 8000, 8_001, 11, "npx", "-y", "@mcp/github")
                .process(HostFixture.OWN_PID, 900, 9_000, 15, "npx", "-y", "@mcp/github");
        host.fleetPids.add(8000L);

        assertEquals(List.of(), host.reportAll().servers());
    }

    @Test
    void aServerOfAnotherClientKindIsReportedUnderEveryEntryItMatches() {
        ConfiguredServer cursorGithub = new ConfiguredServer(ClientKind.CURSOR, "/home/u/.cursor/mcp.json", "gh",
                null, "npx", List.of("-y", "@mcp/github"), List.of(List.of("npx", "-y", "@mcp/github")));
        HostReport report = claude().configure(cursorGithub)
                .process(3000, 1, 4_000, 31, "npx", "-y", "@mcp/github")
                .process(2000, 1000, 5_000, 12, "npx", "-y", "@mcp/github")
                .report();

        assertEquals("gh, github", server(report, 3000).name());
        assertEquals("github", server(report, 2000).name(), "its client's own entry");
    }

    /**
     * A Node client (Claude Code, VS Code, Cursor...) gives its server a socketpair end as stdin: the observer
     * reports that socket's inode as the stdin channel and the client as holding it (the peer socket next to it),
     * so the server, adopted by init, is its client's while the client lives and orphaned once it is gone.
     */
    @Test
    void aServerOnANodeClientsSocketpairIsItsClientsUntilTheClientIsGone() {
        HostReport fed = claude().process(3000, 1, 4_000, 41, "npx", "-y", "@mcp/github")
                .client(1001, 900, 1000, Set.of(41L), "node", "/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js")
                .report();
        HostReport gone = claude().process(3000, 1, 4_000, 41, "npx", "-y", "@mcp/github").report();

        assertEquals(ServerState.CURRENT, server(fed, 3000).state());
        assertEquals(1001L, server(fed, 3000).clientPid(), "adopted by init, it is the socket's holder's");
        assertEquals(ServerState.ORPHANED, server(gone, 3000).state());
    }
}
