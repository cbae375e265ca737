package dev.fleet.cli.demo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * The processes a {@link DemoFleet} started: each server (or, through a launcher, the launcher) and
 * the servers launchers started. The demo may remove its registry only once every one has exited,
 * and says which have not. Not thread-safe: the fleet calls it under its own lock where calls race.
 */
final class DemoProcesses {

    private final List<Process> servers = new ArrayList<>();
    /** The servers launchers started: once their client is gone, no Process of the demo's stands for them. */
    private final List<ProcessHandle> adopted = new ArrayList<>();

    /** A process just started: tracked at once, so that clean-up waits for it whatever happens next. */
    void started(Process server) {
        servers.add(server);
    }

    /** A server a launcher started, as it answered. */
    void adopt(ProcessHandle server) {
        adopted.add(server);
    }

    /** The pids of the servers started through launchers, in the order they answered. */
    List<Long> adoptedPids() {
        return adopted.stream().map(ProcessHandle::pid).toList();
    }

    /**
     * True when every process the demo started has exited by itself, with status 0: a server on the
     * end-of-stdin path, not a signal, and a launcher once its client was gone.
     */
    boolean allExitedCleanly() {
        return servers.stream().allMatch(server -> !server.isAlive() && server.exitValue() == 0);
    }

    /** Waits up to {@code wait} in all for every process to exit; returns at once when interrupted. */
    void awaitExit(Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        for (Process server : servers) {
            try {
                server.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        for (ProcessHandle orphan : adopted) {
            try {
                orphan.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (ExecutionException | TimeoutException e) { // told by stillRunning()
            }
        }
    }

    /** Processes that have not exited yet, as {@code pid N}; empty once every one has. */
    List<String> stillRunning() {
        return Stream.concat(servers.stream().map(Process::toHandle), adopted.stream())
                .filter(ProcessHandle::isAlive).map(server -> "pid " + server.pid()).distinct().toList();
    }
}
