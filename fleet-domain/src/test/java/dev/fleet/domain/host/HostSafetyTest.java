package dev.fleet.domain.host;

import static dev.fleet.domain.host.HostFixture.entry;
import static dev.fleet.domain.host.HostFixture.server;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What keeps {@code fleet host} from printing a line that stops the wrong process: a live server never called
 * orphaned on missing evidence, init, the observer's shell and a process without a start never in a tree, a
 * stop line only on the boot it was made on, a leftover only of its own project's entries.
 */
class HostSafetyTest {

    private static final ConfiguredServer GITHUB = entry(ClientKind.CLAUDE_CODE, "github", "npx", "-y", "@mcp/github");
    private static final ConfiguredServer FILES = entry(ClientKind.CLAUDE_CODE, "files", "uvx", "mcp-files");

    private static HostFixture host() {
        return new HostFixture().withInit().configure(GITHUB).configure(FILES);
    }

    private static HostProcess unreadable(long pid) {
        return new HostProcess(pid, 1, pid, pid, 0, 100, HostFixture.at(100), List.of("/usr/sbin/sshd"), false, null,
                false, Set.of(), 0, false);
    }

    /** Claude Code takes a whole configuration as an argument, env and headers included: none of it is shown. */
    @Test
    void configurationWrittenInlineInACommandLineIsNeverShown() {
        String inline = "{\"mcpServers\":{\"github\":{\"command\":\"npx\",\"args\":[\"-y\",\"@mcp/github\"],"
                + "\"env\":{\"OPENAI_API_KEY\":\"sk-proj-SECRET1\"},\"headers\":{\"X-Api-Key\":\"hdr-SECRET2\"}}}}";
        String config = " {\"token\": \"SECRET3\"}";
        HostFixture host = host().configure(entry(ClientKind.CLAUDE_CODE, "cfg", "mcp-cfg", "--config", config))
                .client(700, 1, 500, Set.of(31L, 32L), "claude", "--mcp-config", inline, "--strict-mcp-config",
                        "--mcp-config=" + inline, "-c", "mcp_servers.x.env={TOKEN=\"SECRET4\"}",
                        "--config=mcp_servers.y.env={A=\"SECRET5\"}", "-c", "mcp_servers.z.env.PAT=\"SECRET6\"",
                        "--env=production")
                .process(3000, 700, 4_000, 31, "mcp-cfg", "--config", config)
                .process(3001, 700, 9_000, 32, "mcp-cfg", "--config", config);
        HostInventory inventory = HostClassifier.inventory(host.snapshot(), true);

        assertEquals("claude --mcp-config *** --strict-mcp-config --mcp-config=*** -c mcp_servers.x.env=*** "
                + "--config=mcp_servers.y.env=*** -c mcp_servers.z.env.PAT=*** --env=production",
                inventory.report().clients().get(0).command());
        assertEquals(ServerState.STALE_GENERATION, server(inventory.report(), 3000).state());
        assertTrue(inventory.stopScript().contains("mcp-cfg --config ***"), inventory.stopScript());
        String everything = HostReportDocument.canonicalJson(inventory.report()) + inventory.stopScript();
        for (String secret : List.of("SECRET1", "SECRET2", "SECRET3", "SECRET4", "SECRET5", "SECRET6")) {
            assertFalse(everything.contains(secret), () -> secret + " shown: " + everything);
        }
    }

    @Test
    void aServerUnderALiveProcessOfNoKnownKindIsThatProcesssNeverAnOrphan() {
        // Its client runs as another user, or holds a socketpair peer not numbered next to its stdin: no holder seen.
        HostReport report = host().client(700, 1, 500, Set.of(), "/opt/editor/bin/editor")
                .process(3000, 700, 4_000, 31, "npx", "-y", "@mcp/github").report();

        HostServer server = server(report, 3000);
        assertEquals(ServerState.CURRENT, server.state());
        assertEquals(700L, server.clientPid());
        assertNull(server.stop());
        assertEquals(0, report.strays());
    }

    @Test
    void anUnfedServerUnderInitIsNoOrphanWhenSomeProcesssFilesWentUnread() {
        HostReport report = host().add(unreadable(600)).add(unreadable(601))
                .process(3000, 1, 4_000, 31, "npx", "-y", "@mcp/github")
                .process(3100, 500, 4_100, 32, "uvx", "mcp-files").report();

        for (long pid : List.of(3000L, 3100L)) {
            HostServer server = server(report, pid);
            assertEquals(ServerState.CURRENT, server.state(), "its holder may be a process the look could not read");
            assertNull(server.clientPid());
            assertNull(server.stop());
        }
        assertEquals(0, report.strays());
        assertEquals(List.of("cannot tell whether pids 3000, 3100 are orphaned: the open files of 2 processes could "
                + "not be read (another user's, or past the look's bound); shown current, without a client"),
                report.warnings());
    }

    @Test
    void withEveryProcesssFilesReadAnUnfedServerUnderAReaperIsOrphaned() {
        HostReport report = host().process(3100, 500, 4_100, 32, "uvx", "mcp-files").report();

        assertEquals(ServerState.ORPHANED, server(report, 3100).state());
        assertEquals(List.of(), report.warnings());
    }

    @Test
    void aStrayIsNeverStoppedOnAnotherBootAndAnUnknownBootGivesNoLine() {
        HostFixture stale = host().client(1000, 1, 1000, Set.of(11L, 12L), "claude")
                .process(1500, 1000, 3_000, 11, "npx", "-y", "@mcp/github")
                .process(2000, 1000, 5_000, 12, "npx", "-y", "@mcp/github");

        String line = server(stale.report(), 1500).stop();
        assertTrue(line.startsWith("(set -f; IFS=' '; [ \"$(tr A-F a-f </proc/sys/kernel/random/boot_id 2>/dev/null)\" = '"
                + HostFixture.BOOT_ID + "' ] || { "), line);

        HostReport unknownBoot = HostClassifier.classify(new HostSnapshot(stale.configured, stale.processes,
                "not-a-boot-id; rm -rf ~", HostFixture.OWN_PID, Set.of(), List.of()), false);
        assertEquals(ServerState.STALE_GENERATION, server(unknownBoot, 1500).state());
        assertEquals(StopLine.UNKNOWN_BOOT, server(unknownBoot, 1500).stop(), "a line that signals nothing");
        assertEquals(1, unknownBoot.strays());
        assertTrue(unknownBoot.warnings().stream().anyMatch(w -> w.startsWith("no stop line signals anything: the boot")),
                unknownBoot.warnings().toString());
    }

    @Test
    void initIsNeverAServerNorInATreeNorAStray() {
        // A snapshot where pid 1 itself shows a server's argv (a container whose init is the server).
        HostReport report = new HostFixture().configure(GITHUB)
                .process(1, 0, 1, 31, "npx", "-y", "@mcp/github")
                .process(3000, 1, 4_000, 0, "node", "worker").report();

        assertEquals(List.of(), report.servers());
        assertEquals(0, report.strays());
    }

    @Test
    void theObserversAncestorsAreNeverInATreeNorAStray() {
        // fleet host | sh run from a shell below a stale server: a line stopping that tree would end the script.
        HostReport report = host().client(1000, 1, 1000, Set.of(11L, 12L), "claude")
                .process(1500, 1000, 3_000, 11, "npx", "-y", "@mcp/github")
                .process(1600, 1500, 3_100, 0, "bash")
                .process(HostFixture.OWN_PID, 1600, 9_000, 0, "fleet", "host")
                .process(2000, 1000, 5_000, 12, "npx", "-y", "@mcp/github").report();

        assertTrue(report.servers().stream().noneMatch(server -> server.pids().contains(1500L)
                || server.pids().contains(1600L)), "the shell that runs the script, and what it runs under: " + report);
        assertEquals(0, report.strays());
    }

    @Test
    void aProcessWithoutAStartIsNeverInAStopLine() {
        HostReport report = host().client(1000, 1, 1000, Set.of(11L, 12L), "claude")
                .process(1500, 1000, 3_000, 11, "npx", "-y", "@mcp/github")
                .process(1501, 1500, -1, 0, "node", "child")
                .process(2000, 1000, 5_000, 12, "npx", "-y", "@mcp/github").report();

        HostServer stale = server(report, 1500);
        assertEquals(List.of(1500L), stale.pids());
        assertTrue(stale.stop().contains(" 1500:3000;"), stale.stop());
    }

    @Test
    void aLeftoverIsOfAnEntryOfItsClientsProjectOnly() {
        ConfiguredServer ours = new ConfiguredServer(ClientKind.CLAUDE_CODE, "/home/u/.claude.json", "ours", "/work/a",
                "uvx", List.of("ours"), List.of(List.of("uvx", "ours")));
        ConfiguredServer theirs = new ConfiguredServer(ClientKind.CLAUDE_CODE, "/home/u/.claude.json", "theirs",
                "/work/b", "uvx", List.of("theirs"), List.of(List.of("uvx", "theirs")));
        ConfiguredServer also = new ConfiguredServer(ClientKind.CLAUDE_CODE, "/home/u/.claude.json", "also", "/work/a",
                "uvx", List.of("also"), List.of(List.of("uvx", "also")));
        HostReport report = new HostFixture().withInit().configure(ours).configure(theirs).configure(also)
                .client(1000, 1, 1000, Set.of(11L, 12L), "claude")
                .process(2000, 1000, 5_000, 12, "uvx", "ours")
                .process(4000, 500, 4_500, 11, "python", "-m", "also_server").report();

        HostServer leftover = server(report, 4000);
        assertEquals(ServerState.LEFTOVER, leftover.state());
        assertEquals("also", leftover.name(), "the other project's 'theirs' is another client's business");
    }

    /**
     * A project's {@code .mcp.json} is anyone's to write (a cloned repository's): an entry naming a daemon of the
     * user's, under init with {@code /dev/null} for stdin ({@code tmux}'s server, an agent), made it an orphan, and
     * the stop script ended it with every session below it. A stdio server a client started reads that client's
     * pipe or socket, and only a channel no one holds proves its client gone: with none, it is never an orphan.
     */
    @Test
    void aProcessReadingNoChannelUnderInitIsNeverAnOrphan() {
        HostReport report = new HostFixture().withInit()
                .configure(entry(ClientKind.CLAUDE_CODE, "mux", "tmux", "-L", "work", "new-session", "-d"))
                .process(4200, 1, 4_400, 0, "tmux", "-L", "work", "new-session", "-d")
                .process(4201, 4200, 4_401, 0, "-bash").report();

        assertEquals(ServerState.CURRENT, server(report, 4200).state(), report.toString());
        assertNull(server(report, 4200).stop());
        assertEquals(0, report.strays());
        assertEquals(List.of("cannot tell whether pid 4200 is orphaned: its stdin reads no pipe or socket (a daemon's "
                + "/dev/null), where every stdio server a client starts reads its client's, so nothing shows a client "
                + "gone; shown current, without a client"), report.warnings());
    }

    /**
     * Nor is it ever an older generation or a duplicate: a script's background jobs (a shell gives them /dev/null)
     * or daemons a reaper adopted ({@code ssh-agent}, one per login) that an entry names were all but the youngest
     * {@code stale_generation}, and the stop script ended them.
     */
    @Test
    void aProcessReadingNoChannelIsNeverAGeneration() {
        HostReport report = new HostFixture().withInit().configure(entry(ClientKind.CLAUDE_CODE, "w", "sleep", "1000"))
                .process(4100, 1, 4_000, 0, "bash", "jobs.sh")
                .process(4200, 4100, 4_400, 0, "sleep", "1000")
                .process(4300, 4100, 4_600, 0, "sleep", "1000")
                .process(4400, 500, 4_700, 0, "sleep", "1000")
                .process(4500, 500, 4_750, 0, "sleep", "1000").report();

        assertEquals(0, report.strays(), report.toString());
        for (long pid : List.of(4200L, 4300L, 4400L, 4500L)) {
            assertEquals(ServerState.CURRENT, server(report, pid).state(), report.toString());
        }
        assertEquals(4100L, server(report, 4200).clientPid());
    }

    @Test
    void aProcessUnderALiveOrdinaryParentIsNeverALeftover() {
        HostReport report = host().client(1000, 1, 1000, Set.of(13L), "claude")
                .process(4200, 1, 4_400, 0, "tmux")
                .process(4000, 4200, 4_500, 13, "python", "-m", "mcp_files.server").report();

        assertEquals(List.of(), report.servers());
    }

    @Test
    void twoCopiesOfOnePidAreChosenByTheirPipesInNumericOrderNotBySetOrder() {
        HostProcess twenties = new HostProcess(700, 1, 700, 700, 1000, 50, HostFixture.at(50), List.of("x"), false,
                null, false, Set.of(20L, 30L), 0, true);
        HostProcess three = new HostProcess(700, 1, 700, 700, 1000, 50, HostFixture.at(50), List.of("x"), false,
                null, false, Set.of(3L), 0, true);

        assertEquals(Set.of(3L), ProcessForest.of(List.of(twenties, three)).get(700).pipesWritten());
        assertEquals(Set.of(3L), ProcessForest.of(List.of(three, twenties)).get(700).pipesWritten());
    }

    @Test
    void bidirectionalControlsInAStopScriptCommentBecomeQuestionMarks() {
        String text = "a\u200eb\u200fc\u202ad\u202ee\u2066f\u2069g\u2028h";

        assertEquals("a?b?c?d?e?f?g?h", Sanitized.oneLine(text));
    }

    /** The invoker (uid 1000), so that the look knows whose processes are its own to stop. */
    private static HostFixture ownedBy1000() {
        return host().add(new HostProcess(HostFixture.OWN_PID, 1, HostFixture.OWN_PID, HostFixture.OWN_PID, 1000, 9_000,
                HostFixture.at(9_000), List.of("java", "-jar", "fleet.jar", "host"), true, null, false, Set.of(), 0,
                true));
    }

    /** A process reparented to init that reads {@code channel}, of {@code uid}, over a pipe or a socket. */
    private static HostProcess adopted(long pid, int uid, long channel, boolean socket, String... argv) {
        return new HostProcess(pid, 1, pid, pid, uid, 4_500, HostFixture.at(4_500), List.of(argv), false, channel,
                socket, true, Set.of(), 1024, true);
    }

    /** Another user's process is theirs to stop: never a leftover, whoever feeds it (the host audit's H3). */
    @Test
    void anotherUsersProcessIsNeverALeftover() {
        HostFixture host = ownedBy1000().client(700, 1, 500, Set.of(13L, 14L), "claude");

        HostReport report = host.add(adopted(4000, 65_534, 13, false, "sleep", "100000"))
                .add(adopted(4100, 1000, 14, false, "sleep", "100000")).report();

        assertTrue(report.servers().stream().noneMatch(server -> server.rootPid() == 4000), report.toString());
        assertEquals(ServerState.LEFTOVER, server(report, 4100).state(), "the invoker's own, over a pipe");
    }

    /**
     * A client's own output read by another process ({@code codex exec ... | tee log &} in a script that has exited,
     * the {@code tee} adopted by init) is no stdin the client made for a server: never a leftover, which the stop
     * script would end (and the client with it, on its next write).
     */
    @Test
    void whatReadsAClientsOwnOutputIsNeverALeftover() {
        HostFixture host = ownedBy1000().add(new HostProcess(700, 1, 700, 700, 1000, 500, HostFixture.at(500),
                List.of("codex", "exec", "a task"), false, null, false, true, Set.of(13L, 14L), 4096, true, Set.of(13L)));

        HostReport report = host.add(adopted(4000, 1000, 13, false, "tee", "codex.log"))
                .add(adopted(4100, 1000, 14, false, "sleep", "100000")).report();

        assertTrue(report.servers().stream().noneMatch(server -> server.rootPid() == 4000), report.toString());
        assertEquals(ServerState.LEFTOVER, server(report, 4100).state(), "fed through a pipe end of its own making");
    }

    /**
     * Over a socket, who holds the peer is a guess (the inode next to it): a process next to which a client holds a
     * socket is never a leftover on that alone, since the stop script would end it (the host audit's H2).
     */
    @Test
    void aProcessFedOverASocketIsNeverALeftoverOnAGuess() {
        HostReport report = ownedBy1000().client(700, 1, 500, Set.of(13L), "claude")
                .add(adopted(4000, 1000, 13, true, "sleep", "100000")).report();

        assertTrue(report.servers().stream().noneMatch(server -> server.rootPid() == 4000), report.toString());
        assertEquals(0, report.strays());
    }

    /**
     * A server reparented to init that reads a socket is fed by whoever holds its peer, which only a guess names (a
     * socket whose inode is next to it): under no client, never an older generation of another instance, whether one
     * process or two hold the sockets next to it (the host audit's H2, and the review's find).
     */
    @Test
    void aServerReparentedOverASocketIsUnderNoClient() {
        HostReport one = ownedBy1000().client(700, 1, 500, Set.of(13L), "claude")
                .process(3200, 700, 6_000, 21, "uvx", "mcp-files")
                .add(adopted(3100, 1000, 13, true, "uvx", "mcp-files")).report();
        HostReport two = ownedBy1000().client(700, 1, 500, Set.of(13L), "claude")
                .process(3200, 700, 6_000, 21, "uvx", "mcp-files").client(800, 1, 400, Set.of(13L), "myhost")
                .add(adopted(3100, 1000, 13, true, "uvx", "mcp-files")).report();
        HostReport overAPipe = ownedBy1000().client(700, 1, 500, Set.of(13L), "claude")
                .process(3200, 700, 6_000, 21, "uvx", "mcp-files")
                .add(adopted(3100, 1000, 13, false, "uvx", "mcp-files")).report();

        for (HostReport report : List.of(one, two)) {
            assertEquals(ServerState.CURRENT, server(report, 3100).state(), report.toString());
            assertNull(server(report, 3100).clientPid());
            assertEquals(ServerState.CURRENT, server(report, 3200).state(), report.toString());
            assertEquals(0, report.strays());
            assertTrue(report.warnings().contains("cannot tell which process feeds pid 3100: a socket's peer is named "
                    + "by no look, only guessed from the inode next to it, and a guess never makes a stray; shown "
                    + "current, without a client"), report.warnings().toString());
        }
        assertEquals(ServerState.STALE_GENERATION, server(overAPipe, 3100).state(), "a pipe's holder is known");
        assertEquals(700L, server(overAPipe, 3100).clientPid());
    }
}
