package dev.fleet.observer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.re2j.Pattern;
import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.ProcessObservation;
import dev.fleet.testing.MarkerProcess;
import dev.fleet.testing.SecretArguments;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The ProcessHandle fallback, tested directly on Linux (where the factory never picks it) against
 * the /proc observer. The JDK reports the executable's path where argv[0] was, so the marked process
 * is found here by its unique sleep argument.
 */
@EnabledOnOs(OS.LINUX)
class ProcessHandleObserverTest {

    private final ProcessHandleObserver fallback = new ProcessHandleObserver();
    private final ProcfsProcessObserver procfs = new ProcfsProcessObserver();
    @RegisterExtension
    final Spawned spawned = new Spawned();

    @Test
    void seesTheMarkedProcessWithTheSamePidAndStartAsTheProcReader() throws Exception {
        Spawned.Marked child = spawned.markedSleep();
        List<String> patterns = List.of(Pattern.quote(child.marker()), Pattern.quote(" 600 " + child.token()));

        ProcessObservation viaJdk = fallback.observe(patterns, Set.of());
        ProcessObservation viaProc = procfs.observe(patterns, Set.of());

        assertInstanceOf(ProcessObservation.Available.class, viaJdk);
        assertEquals(1, viaJdk.processes().size(), () -> viaJdk.processes().toString());
        assertEquals(1, viaProc.processes().size(), () -> viaProc.processes().toString());
        ObservedProcess jdk = viaJdk.processes().get(0);
        ObservedProcess proc = viaProc.processes().get(0);
        assertEquals(child.pid(), jdk.pid());
        assertEquals(proc.pid(), jdk.pid());
        assertNotNull(jdk.startedAt());
        assertEquals(proc.startedAt(), jdk.startedAt());
        assertEquals(proc.user(), jdk.user());
        assertTrue(jdk.matchesServer());
        assertTrue(jdk.commandLine().endsWith("sleep 600 " + child.token()), jdk.commandLine());
    }

    /** The JDK gives the arguments apart too: each masked whole, as the /proc observer masks them. */
    @Test
    void keepsTheCommandLineWithItsSecretsMaskedArgumentByArgument() {
        String marker = Spawned.marker();
        try (MarkerProcess child = MarkerProcess.withArguments(marker, SecretArguments.array())) {
            ProcessObservation observation = fallback.observe(List.of(Pattern.quote(marker + " --token ZqTokA")),
                    Set.of());

            assertEquals(1, observation.processes().size(), () -> "processes: " + observation.processes());
            ObservedProcess process = observation.processes().get(0);
            assertEquals(child.pid(), process.pid());
            assertTrue(process.commandLine().endsWith(" -c read -t 600 " + marker + " " + SecretArguments.MASKED),
                    process.commandLine());
            SecretArguments.assertHidden(process.commandLine(), "the observed command line");
        }
    }

    @Test
    void looksUpRegisteredPidsAndSkipsExitedOnes() throws Exception {
        Process live = spawned.sleep();
        Process exited = spawned.start("true");
        exited.waitFor();
        long self = ProcessHandle.current().pid();

        ProcessObservation observation = fallback.observe(List.of(Pattern.quote(Spawned.marker())),
                Set.of(live.pid(), exited.pid(), self));

        assertInstanceOf(ProcessObservation.Available.class, observation);
        List<Long> pids = observation.processes().stream().map(ObservedProcess::pid).toList();
        assertEquals(List.of(Math.min(live.pid(), self), Math.max(live.pid(), self)), pids);
        observation.processes().forEach(process -> assertFalse(process.matchesServer()));
        observation.processes().forEach(process -> assertEquals(
                ProcessHandle.of(process.pid()).orElseThrow().info().startInstant().orElseThrow(), process.startedAt()));
    }

    @Test
    void readsTheSameHostFactsAsTheProcReader() {
        ProcessObservation viaJdk = fallback.observe(List.of(), Set.of());
        ProcessObservation viaProc = procfs.observe(List.of(), Set.of());

        assertEquals(viaProc.bootId(), viaJdk.bootId());
        assertEquals(viaProc.hostname(), viaJdk.hostname());
        assertTrue(viaJdk.processes().isEmpty());
    }
}
