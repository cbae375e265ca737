package dev.fleet.cli.host;

import dev.fleet.testing.Patience;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every process a scenario started or saw started, ended when it ends (whatever the scenario did to
 * them): a server whose client was killed is no descendant of anything the test holds, so each is
 * remembered by its handle, which keeps its start instant: a pid reused meanwhile is never signalled
 * (the JDK compares the start before it signals).
 */
final class TestProcesses implements AutoCloseable {

    private final Map<Long, ProcessHandle> handles = new LinkedHashMap<>();
    /** Processes the test started itself, held so that the pipes to them stay open until the end. */
    private final List<Process> started = new ArrayList<>();

    /** Remembers {@code process}, which the test started, and holds its pipes open until {@link #close}. */
    synchronized void add(Process process) {
        started.add(process);
        add(process.pid());
    }

    /** Remembers {@code pid} and its descendants now, if it still runs. */
    synchronized void add(long pid) {
        ProcessHandle.of(pid).ifPresent(handle -> {
            handles.putIfAbsent(pid, handle);
            handle.descendants().forEach(child -> handles.putIfAbsent(child.pid(), child));
        });
    }

    /**
     * Whether {@code pid} runs: in the process table and no zombie (a killed server whose live client
     * never reaps it stays a zombie, dead all the same). Read from {@code /proc/PID/stat}.
     */
    static boolean runs(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String afterName = stat.substring(stat.lastIndexOf(')') + 2);
            return afterName.charAt(0) != 'Z' && afterName.charAt(0) != 'X';
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Field 22 of {@code /proc/PID/stat}: the start in clock ticks since boot, -1 when gone. */
    static long startTicks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[19]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Waits (a minute on a quiet host, scaled) until {@code pid} no longer runs. */
    static void awaitGone(long pid, String what) throws InterruptedException {
        Patience.await(Duration.ofSeconds(60), Duration.ofMillis(20), () -> !runs(pid), what + " (pid " + pid + ") ends");
    }

    /** SIGKILL to everything remembered and to what descends from it now, newest first. */
    @Override
    public synchronized void close() throws InterruptedException {
        List<ProcessHandle> all = new ArrayList<>(handles.values());
        for (ProcessHandle handle : List.copyOf(all)) {
            handle.descendants().forEach(all::add);
        }
        for (int i = all.size() - 1; i >= 0; i--) {
            all.get(i).destroyForcibly();
        }
        for (ProcessHandle handle : all) {
            Patience.await(Duration.ofSeconds(30), Duration.ofMillis(20),
                    () -> !handle.isAlive() || !runs(handle.pid()), "pid " + handle.pid() + " ends at cleanup");
        }
        handles.clear();
        started.clear();
    }
}
