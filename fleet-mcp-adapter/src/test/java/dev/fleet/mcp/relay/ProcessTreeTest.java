package dev.fleet.mcp.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.testing.MainThreadExited;
import dev.fleet.testing.Patience;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A zombie is gone to the relay, though {@link ProcessHandle#isAlive} says otherwise; a process whose main
 * thread alone has exited is not, though its stat says Z.
 */
class ProcessTreeTest {

    @Test
    void aZombieIsNeitherRunningNorPartOfTheTree() throws Exception {
        // The short sleep's parent is the long one (sh execs it), which never reaps it: a zombie till the end.
        Process leader = new ProcessBuilder("setsid", "sh", "-c", "sleep 0.2 & exec sleep 30").start();
        try {
            Patience.await(Duration.ofSeconds(10), Duration.ofMillis(20),
                    () -> leader.descendants().anyMatch(ProcessTreeTest::zombie), "a zombie");
            ProcessHandle zombie = leader.descendants().filter(ProcessTreeTest::zombie).findFirst()
                    .orElseThrow();
            assertTrue(zombie.isAlive(), "the JDK counts a zombie as alive");
            assertFalse(ProcessTree.runs(zombie));
            assertTrue(ProcessTree.runs(leader.toHandle()));
            List<Long> mine = List.of(leader.pid(), zombie.pid());
            assertEquals(List.of(leader.pid()), ProcessTree.running(ProcessHandle.current().pid(), leader.pid()).stream()
                    .map(ProcessHandle::pid).filter(mine::contains).toList(), "the tree's running processes: the leader alone");
        } finally {
            leader.destroyForcibly();
            leader.waitFor();
        }
    }

    /** Its main thread alone has exited (a zombie to /proc/PID/stat), yet it runs: part of the tree, to be ended with it. */
    @Test
    void aProcessWhoseMainThreadAloneHasExitedRunsAndIsPartOfTheTree() throws Exception {
        Process leader = MainThreadExited.start(List.of("setsid"), "fleet-relay-tree");
        try {
            assertTrue(ProcessTree.runs(leader.toHandle()));
            assertEquals(List.of(leader.pid()), ProcessTree.running(ProcessHandle.current().pid(), leader.pid()).stream()
                    .map(ProcessHandle::pid).filter(pid -> pid == leader.pid()).toList());
        } finally {
            leader.destroyForcibly();
            leader.waitFor();
        }
    }

    private static boolean zombie(ProcessHandle process) {
        return MainThreadExited.state(process.pid()).equals("Z");
    }
}
