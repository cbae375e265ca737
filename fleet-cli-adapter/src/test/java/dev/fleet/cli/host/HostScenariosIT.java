package dev.fleet.cli.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fleet.testing.Patience;
import java.io.BufferedReader;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fleet host} (the contract, §14) against real process trees made as MCP clients make them:
 * client programs ({@link ClientProgram}: python ones named {@code claude} and {@code codex}, the
 * TypeScript SDK's client named {@code gemini}) read a temporary HOME's configurations and start their
 * servers over pipes; each scenario then makes one state happen for real and reads the JSON report of
 * the real jar. Only this test's own configurations are read, so other processes on the host never show.
 */
class HostScenariosIT {

    @TempDir
    Path dir;

    private HostHome home;
    private final TestProcesses processes = new TestProcesses();

    @BeforeAll
    static void needsPython() {
        HostHome.python();
    }

    @BeforeEach
    void home() throws Exception {
        home = HostHome.create(dir);
    }

    @AfterEach
    void endEveryProcess() throws Exception {
        processes.close();
    }

    @Test
    void aReloadLeavesTheOlderGenerationStale() throws Exception {
        home.claude(Map.of("alpha", home.server("alpha")));
        ClientProgram claude = ClientProgram.start(home, "claude", processes);
        long older = claude.awaitGeneration().get(0).pid();
        long younger = claude.reload().get(0).pid();

        HostOutput out = home.host("--format", "json");

        assertEquals(1, out.exitCode(), out.toString());
        assertServer(out, older, "stale_generation", "claude-code", claude.pid(), "alpha");
        assertServer(out, younger, "current", "claude-code", claude.pid(), "alpha");
        assertEquals(1, out.json().get("strays").asInt(), out.toString());
        assertClient(out, "claude-code", claude.pid());
        assertEquals(home.home().resolve(".claude.json").toString(), out.server(older).get("config_file").asText());
        assertFalse(out.run().stdout().contains(HostHome.SECRET), "an env block's value is never shown");
    }

    @Test
    void theTypeScriptSdkClientReconnectingLeavesTheOlderGenerationStale() throws Exception {
        home.gemini(Map.of("notes", home.server("notes")));
        ClientProgram gemini = ClientProgram.start(home, "gemini", processes);
        long older = gemini.awaitGeneration().get(0).pid();
        long younger = gemini.reload().get(0).pid();

        HostOutput out = home.host("--format", "json");

        assertEquals(1, out.exitCode(), out.toString());
        assertServer(out, older, "stale_generation", "gemini", gemini.pid(), "notes");
        assertServer(out, younger, "current", "gemini", gemini.pid(), "notes");
        assertClient(out, "gemini", gemini.pid());
    }

    @Test
    void twoCopiesStartedTogetherMakeTheOlderADuplicate() throws Exception {
        home.codex(Map.of("search", home.server("search")));
        ClientProgram codex = ClientProgram.start(home, "codex", processes, "--twice");
        List<ClientProgram.Started> copies = codex.awaitGeneration();
        assertEquals(2, copies.size(), copies.toString());

        HostOutput out = home.host("--format", "json");

        assertEquals(1, out.exitCode(), out.toString());
        // Copies whose starts lie 1 s apart or more are two generations, by design: only a starved host starts
        // the client's two copies, written one after the other, that far apart.
        Duration apart = Duration.between(startOf(out, copies.get(0)), startOf(out, copies.get(1))).abs();
        assumeTrue(apart.compareTo(Duration.ofSeconds(1)) < 0, "the copies started " + apart + " apart");
        List<String> states = new ArrayList<>();
        for (ClientProgram.Started copy : copies) {
            JsonNode server = out.server(copy.pid());
            states.add(server.get("state").asText());
            assertEquals("codex", server.get("client_kind").asText(), server.toString());
            assertEquals(codex.pid(), server.get("client_pid").asLong(), server.toString());
            assertEquals("search", server.get("name").asText(), server.toString());
        }
        assertEquals(List.of("current", "duplicate"), states.stream().sorted().toList(), out.toString());
        JsonNode duplicate = out.server(copies.get(states.indexOf("duplicate")).pid());
        JsonNode current = out.server(copies.get(states.indexOf("current")).pid());
        assertTrue(duplicate.get("started_ticks").asLong() <= current.get("started_ticks").asLong(),
                "the older copy is the stray: " + out);
        assertTrue(duplicate.get("stop").isTextual() && current.get("stop").isNull(), out.toString());
        assertFalse(out.run().stdout().contains(HostHome.SECRET), "an env block's value is never shown");
    }

    @Test
    void aServerThatIgnoresEofIsOrphanedWhenItsClientIsKilled() throws Exception {
        home.claude(Map.of("stubborn", home.server("stubborn", "--ignore-eof"), "polite", home.server("polite")));
        ClientProgram claude = ClientProgram.start(home, "claude", processes);
        long stubborn = pidOf(claude.awaitGeneration(), "stubborn");
        HostOutput before = home.host("--format", "json");
        assertEquals(0, before.exitCode(), before.toString());
        assertServer(before, stubborn, "current", "claude-code", claude.pid(), "stubborn");

        claude.kill();

        HostOutput out = hostUntil(o -> o.state(stubborn).equals("orphaned"), "the server is orphaned");
        JsonNode orphan = out.server(stubborn);
        assertTrue(orphan.get("client_kind").isNull() && orphan.get("client_pid").isNull(), orphan.toString());
        assertEquals("stubborn", orphan.get("name").asText(), orphan.toString());
        assertTrue(orphan.get("stop").asText().contains(Long.toString(stubborn)), orphan.toString());
        assertEquals(1, out.exitCode(), out.toString());
        assertTrue(TestProcesses.runs(stubborn), "fleet host never signals");
    }

    @Test
    void theChildOfAKilledWrapperIsALeftover() throws Exception {
        home.claude(Map.of("wrapped", home.wrapper("wrapped")));
        ClientProgram claude = ClientProgram.start(home, "claude", processes);
        long wrapper = claude.awaitGeneration().get(0).pid();
        long child = ProcessHandle.of(wrapper).orElseThrow().children().findFirst().orElseThrow().pid();
        HostOutput before = home.host("--format", "json");
        assertServer(before, wrapper, "current", "claude-code", claude.pid(), "wrapped");
        assertTrue(before.server(wrapper).get("pids").toString().contains(Long.toString(child)),
                "the wrapper's tree holds its child: " + before);

        ProcessHandle.of(wrapper).orElseThrow().destroyForcibly(); // as an npx killed alone

        HostOutput out = hostUntil(o -> o.state(child).equals("leftover"), "the wrapper's child is a leftover");
        assertServer(out, child, "leftover", "claude-code", claude.pid(), "wrapped");
        assertEquals("absent", out.state(wrapper), out.toString());
        assertEquals(1, out.exitCode(), out.toString());
    }

    @Test
    void aServerStartedFromATerminalIsManualAndNeverAStray() throws Exception {
        List<String> argv = home.server("alpha");
        home.claude(Map.of("alpha", argv));
        long server = ByHand.start(argv, processes);

        HostOutput out = home.host("--format", "json");

        assertEquals("manual", out.state(server), out.toString());
        assertTrue(out.server(server).get("stop").isNull(), out.toString());
        assertEquals(0, out.json().get("strays").asInt(), out.toString());
        assertEquals(0, out.exitCode(), out.toString());
        HostOutput strays = home.host("--strays", "--format", "json");
        assertEquals(0, strays.exitCode(), strays.toString());
        assertEquals(0, strays.json().get("servers").size(), strays.toString());
    }

    /**
     * A client's own output read by a process that init adopted ({@code codex exec ... | tee log &} in a script
     * that has exited) is no stdin the client made for a server: never a leftover, whose stop line would end it,
     * and the client with it on its next write.
     */
    @Test
    void whatReadsAClientsOwnOutputIsNoLeftover() throws Exception {
        // $! is the pipeline's last process, jobs -p its first.
        Process script = new ProcessBuilder("bash", "-c", "exec -a claude sleep 600 "
                + "| exec -a fleet-test-tee cat >/dev/null & echo $!; jobs -p").start();
        processes.add(script);
        long tee;
        long client;
        try (BufferedReader pids = script.inputReader()) {
            tee = Long.parseLong(pids.readLine().strip());
            client = Long.parseLong(pids.readLine().strip());
        }
        processes.add(client);
        processes.add(tee);
        assertTrue(script.waitFor(Patience.scaled(Duration.ofSeconds(30)).toSeconds(), TimeUnit.SECONDS));

        HostOutput out = home.host("--format", "json");

        assertTrue(TestProcesses.runs(tee) && TestProcesses.runs(client), out.toString());
        assertEquals("absent", out.state(tee), out.toString());
    }

    /**
     * Any process may match an entry (a cloned repository's {@code .mcp.json} names what it likes): a daemon under
     * init reading {@code /dev/null}, as {@code tmux}'s server does, was called orphaned, and the stop script ended it
     * with every session below it. Only a channel no one holds proves a client gone.
     */
    @Test
    void aDaemonReadingNoChannelIsNeverAnOrphan() throws Exception {
        String seconds = "600." + ProcessHandle.current().pid();
        home.claude(Map.of("mux", List.of("sleep", seconds)));
        Process script = new ProcessBuilder("bash", "-c", "setsid sleep \"$0\" </dev/null >/dev/null 2>&1 & echo $!",
                seconds).start();
        processes.add(script);
        long daemon;
        try (BufferedReader pid = script.inputReader()) {
            daemon = Long.parseLong(pid.readLine().strip());
        }
        processes.add(daemon);
        assertTrue(script.waitFor(Patience.scaled(Duration.ofSeconds(30)).toSeconds(), TimeUnit.SECONDS));

        HostOutput out = home.host("--format", "json");

        assertEquals("current", out.state(daemon), out.toString());
        assertTrue(out.server(daemon).get("stop").isNull() && out.server(daemon).get("client_pid").isNull(),
                out.toString());
        assertTrue(out.json().get("warnings").toString().contains("cannot tell whether pid " + daemon
                + " is orphaned: its stdin reads no pipe or socket"), out.toString());
    }

    /** Nor a generation: a script's background jobs, which the shell gives /dev/null, are no client's instances. */
    @Test
    void backgroundJobsReadingNoChannelAreNoGenerations() throws Exception {
        String seconds = "601." + ProcessHandle.current().pid();
        home.claude(Map.of("jobs", List.of("sleep", seconds)));
        Process script = new ProcessBuilder("bash", "-c", "sleep \"$0\" & echo $!; sleep 1.5; sleep \"$0\" & echo $!; "
                + "wait", seconds).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        processes.add(script);
        long older;
        long younger;
        try (BufferedReader pids = script.inputReader()) {
            older = Long.parseLong(pids.readLine().strip());
            younger = Long.parseLong(pids.readLine().strip());
        }

        HostOutput out = home.host("--format", "json");

        assertEquals("current", out.state(older), out.toString());
        assertEquals("current", out.state(younger), out.toString());
        assertEquals(script.pid(), out.server(older).get("client_pid").asLong(), out.toString());
    }

    /** Runs {@code fleet host} until {@code wanted} holds (a minute on a quiet host, scaled): a death takes a moment to show. */
    private HostOutput hostUntil(Predicate<HostOutput> wanted, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Patience.scaled(Duration.ofSeconds(60)).toNanos();
        HostOutput out = home.host("--format", "json");
        while (!wanted.test(out) && System.nanoTime() < deadline) {
            Thread.sleep(200);
            out = home.host("--format", "json");
        }
        assertTrue(wanted.test(out), what + " (" + Patience.describe() + "): " + out);
        return out;
    }

    static long pidOf(List<ClientProgram.Started> started, String name) {
        return started.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow().pid();
    }

    static void assertServer(HostOutput out, long rootPid, String state, String kind, long clientPid, String name) {
        JsonNode server = out.server(rootPid);
        String all = out.toString();
        assertEquals(state, server.get("state").asText(), all);
        assertEquals(kind, server.get("client_kind").asText(), all);
        assertEquals(clientPid, server.get("client_pid").asLong(), all);
        assertEquals(name, server.get("name").asText(), all);
        assertEquals(rootPid, server.get("pids").get(0).asLong(), "the root comes first: " + all);
        assertEquals(TestProcesses.startTicks(rootPid), server.get("started_ticks").asLong(), all);
        boolean stray = !List.of("current", "manual").contains(state);
        assertEquals(stray, server.get("stop").isTextual(), "a stray, and only a stray, has a stop line: " + all);
    }

    static void assertClient(HostOutput out, String kind, long pid) {
        for (JsonNode client : out.json().get("clients")) {
            if (client.get("pid").asLong() == pid) {
                assertEquals(kind, client.get("kind").asText(), out.toString());
                return;
            }
        }
        throw new AssertionError("client " + pid + " is not listed: " + out);
    }

    private static Instant startOf(HostOutput out, ClientProgram.Started copy) {
        return Instant.parse(out.server(copy.pid()).get("started_at").asText());
    }
}
