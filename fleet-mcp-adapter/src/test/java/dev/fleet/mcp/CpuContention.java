package dev.fleet.mcp;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Busy threads, two per core, for as long as a test needs a host whose CPUs are all taken: the
 * condition under which races between a server's threads show up.
 */
final class CpuContention implements AutoCloseable {

    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Thread> threads = new ArrayList<>();

    private CpuContention() {
    }

    static CpuContention start() {
        CpuContention contention = new CpuContention();
        int count = 2 * Runtime.getRuntime().availableProcessors();
        for (int i = 0; i < count; i++) {
            Thread thread = new Thread(contention::spin, "cpu-contention-" + i);
            thread.setDaemon(true);
            contention.threads.add(thread);
            thread.start();
        }
        return contention;
    }

    private void spin() {
        long sink = 0;
        while (running.get()) {
            sink += System.nanoTime() % 7;
        }
        if (sink == 42) {
            System.err.print(""); // keeps the loop from being optimised away
        }
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        for (Thread thread : threads) {
            thread.join(10_000);
        }
    }
}
