package dev.fleet.observer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.re2j.Pattern;
import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.ProcessObservation;
import dev.fleet.domain.port.out.ProcessObserver;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every observed process's parent, and the ancestors of a server-looking process, on real process trees
 * ({@code sh} → {@code bash} → a marked {@code sleep}), through both observers: what the served rule
 * walks up through. The observers only read; the test starts the trees and kills them.
 */
@EnabledOnOs(OS.LINUX)
class ProcessAncestryTest {

    @RegisterExtension
    final Spawned spawned = new Spawned();

    @Test
    void everyObservedProcessCarriesItsParentsPid() throws Exception {
        Spawned.Marked child = spawned.markedSleep();
        long self = ProcessHandle.current().pid();
        long ourParent = ProcessHandle.current().parent().orElseThrow().pid();

        for (ProcessObserver observer : List.of(new ProcfsProcessObserver(), new ProcessHandleObserver())) {
            Map<Long, ObservedProcess> seen = ProcfsProcessObserverTest.byPid(
                    observer.observe(patterns(child.marker(), child.token()), Set.of(self, 1L)));

            assertEquals(self, seen.get(child.pid()).parentPid(), observer + ": the JVM started it");
            assertEquals(ourParent, seen.get(self).parentPid(), observer.toString());
            assertEquals(null, seen.get(1L).parentPid(), observer + ": init has no parent");
        }
    }

    @Test
    void askedForAncestorsAnObserverClimbsFromEachServerMatchToTheTop() throws Exception {
        String marker = Spawned.marker();
        String token = Spawned.token();
        ProcessHandle sleep = spawned.markedGrandchild(marker, token);
        ProcessHandle bash = sleep.parent().orElseThrow();
        ProcessHandle sh = bash.parent().orElseThrow();
        long self = ProcessHandle.current().pid();
        assertEquals(self, sh.parent().orElseThrow().pid(), "the tree hangs below this JVM");

        for (ProcessObserver observer : List.of(new ProcfsProcessObserver(), new ProcessHandleObserver())) {
            List<String> patterns = patterns(marker, token);
            assertEquals(List.of(sleep.pid()), pids(observer.observe(patterns, Set.of())), "no ancestor unless asked");

            Map<Long, ObservedProcess> seen = ProcfsProcessObserverTest.byPid(observer.observe(patterns, Set.of(), true));

            for (long pid = sleep.pid(); pid != 1; pid = seen.get(pid).parentPid()) {
                assertNotNull(seen.get(pid), observer + ": pid " + pid + " on the way up from " + sleep.pid());
                assertNotNull(seen.get(pid).startedAt());
            }
            assertEquals(bash.pid(), seen.get(sleep.pid()).parentPid());
            assertEquals(sh.pid(), seen.get(bash.pid()).parentPid());
            assertEquals(self, seen.get(sh.pid()).parentPid());
            assertTrue(seen.get(sleep.pid()).matchesServer());
            assertFalse(seen.get(bash.pid()).matchesServer(), "an ancestor is reported whatever its command line");
            assertTrue(seen.get(bash.pid()).commandLine().contains("bash -c "), seen.get(bash.pid()).commandLine());
            assertTrue(seen.containsKey(1L), observer + ": up to init");
        }
    }

    /**
     * The marked sleep's command line, as either observer sees it: with its marker as argv[0] in {@code
     * /proc}, or ending in its token (the JDK shows the executable instead of argv[0]); the shells above it
     * hold the token too, but not at the end.
     */
    private static List<String> patterns(String marker, String token) {
        return List.of(Pattern.quote(marker), Pattern.quote(" 600 " + token) + "$");
    }

    private static List<Long> pids(ProcessObservation observation) {
        return observation.processes().stream().map(ObservedProcess::pid).toList();
    }
}
