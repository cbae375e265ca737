package dev.fleet.observer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.host.ClientKind;
import dev.fleet.domain.host.ConfiguredServer;
import dev.fleet.domain.host.HostClassifier;
import dev.fleet.domain.host.HostProcess;
import dev.fleet.domain.host.HostServer;
import dev.fleet.domain.host.HostSnapshot;
import dev.fleet.domain.host.ServerState;
import dev.fleet.domain.port.out.HostProcessTable;
import dev.fleet.testing.MarkerProcess;
import dev.fleet.testing.Patience;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * A Node client's stdio server, as Claude Code, VS Code, Cursor, Gemini CLI, Claude Desktop and the TypeScript SDK
 * start theirs: libuv hands the child one end of a unix socketpair as stdin and stdout, not a pipe. A real
 * {@code node} spawns a {@code sleep} so; the look takes its socket stdin for its channel, names node as the
 * holder of the other end while node lives, and once node is SIGKILLed the sleep, adopted, is orphaned in the
 * classification of a real look.
 */
@EnabledOnOs(OS.LINUX)
class NodeSocketpairTest {

    private static final Duration START = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(20);
    private static final String CLIENT = "require('child_process').spawn('sleep', ['600'], "
            + "{stdio: ['pipe', 'pipe', 'inherit'], argv0: process.argv[1]}); setInterval(() => {}, 1e6)";

    private final HostProcessTable table = new ProcfsHostProcessTable();
    private Process node;
    private long sleep = -1;

    @AfterEach
    void killBoth() throws InterruptedException {
        if (sleep > 0) {
            ProcessHandle.of(sleep).ifPresent(ProcessHandle::destroyForcibly);
        }
        if (node != null) {
            node.destroyForcibly();
            node.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aNodeClientsSocketpairIsTheServersStdinAndItsServerIsOrphanedOnceNodeIsKilled() throws Exception {
        String marker = MarkerProcess.marker();
        try {
            node = new ProcessBuilder("node", "-e", CLIENT, marker).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (java.io.IOException e) {
            Assumptions.abort("no node on PATH: " + e.getMessage());
        }
        long[] found = {-1};
        Patience.await(START, POLL, () -> (found[0] = ProcEntries.withArgv0(marker)) > 0, marker + " never started");
        sleep = found[0];
        assertTrue(ProcEntries.link(sleep, 0).startsWith("socket:["), ProcEntries.link(sleep, 0));
        ConfiguredServer entry = new ConfiguredServer(ClientKind.CLAUDE_CODE, "/home/u/.claude.json", "sleeper",
                null, marker, List.of("600"), List.of(List.of(marker, "600")));

        HostProcessTable.Look look = table.observe();

        HostProcess server = only(look, sleep);
        assertEquals(node.pid(), server.parentPid());
        assertNotNull(server.stdinPipe(), "its socket is its stdin channel");
        assertTrue(server.stdoutPipe(), "a socket on stdout is a channel too");
        List<Long> holders = look.processes().stream()
                .filter(p -> p.pid() != sleep && p.pipesWritten().contains(server.stdinPipe()))
                .map(HostProcess::pid).toList();
        assertTrue(holders.contains(node.pid()), () -> "node holds the socketpair's other end: " + holders);
        assertEquals(ServerState.CURRENT, classified(look, entry).state());

        node.destroyForcibly();
        node.waitFor(30, TimeUnit.SECONDS);
        Patience.await(START, POLL, () -> ProcessHandle.of(sleep).flatMap(ProcessHandle::parent)
                .map(parent -> parent.pid() != node.pid()).orElse(true), sleep + " is adopted");
        HostProcessTable.Look after = table.observe();

        assertEquals(server.stdinPipe(), only(after, sleep).stdinPipe());
        HostServer orphan = classified(after, entry);
        assertEquals(ServerState.ORPHANED, orphan.state(), orphan::toString);
        assertEquals(null, orphan.clientPid());
    }

    private HostServer classified(HostProcessTable.Look look, ConfiguredServer entry) {
        // No observer pid: the JVM's own tree (node is its child) is the observer's part, left out of any report.
        HostSnapshot snapshot = new HostSnapshot(List.of(entry), look.processes(), look.bootId(), 0, Set.of(),
                look.warnings());
        return HostClassifier.classify(snapshot, false).servers().stream().filter(s -> s.rootPid() == sleep)
                .findFirst().orElseThrow(() -> new AssertionError(sleep + " is no server"));
    }

    private static HostProcess only(HostProcessTable.Look look, long pid) {
        List<HostProcess> matching = look.processes().stream().filter(p -> p.pid() == pid).toList();
        assertEquals(1, matching.size(), () -> "pid " + pid + " in " + look.processes().size() + " processes");
        return matching.get(0);
    }
}
