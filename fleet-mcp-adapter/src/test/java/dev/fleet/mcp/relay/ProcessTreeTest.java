package dev.fleet.mcp.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.testing.Patience;
import java.nio.file.Files;
import java.nio.file.Path;
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
                    () -> leader.descendants().anyMatch(child -> state(child.pid()).equals("Z")), "a zombie");
            ProcessHandle zombie = leader.descendants().filter(child -> state(child.pid()).equals("Z")).findFirst()
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
        Process leader = new ProcessBuilder("setsid", "python3", "-c", String.join("\n",
                "import ctypes, threading, time",
                "threading.Thread(target=time.sleep, args=(30,)).start()",
                "time.sleep(0.05)",
                "ctypes.CDLL(None).pthread_exit(None)")).start();
        try {
            Patience.await(Duration.ofSeconds(30), Duration.ofMillis(20), () -> state(leader.pid()).equals("Z"),
                    "the main thread of python3 exits");

            assertTrue(ProcessTree.runs(leader.toHandle()));
            assertEquals(List.of(leader.pid()), ProcessTree.running(ProcessHandle.current().pid(), leader.pid()).stream()
                    .map(ProcessHandle::pid).filter(pid -> pid == leader.pid()).toList());
        } finally {
            leader.destroyForcibly();
            leader.waitFor();
        }
    }

    private static String state(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            return stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
        } catch (java.io.IOException e) {
            return "";
        }
    }
}
