package dev.fleet.observer;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs one step for every index of a list on this thread and one more, each with its own {@link ProcFileReader}
 * (a reader's buffer belongs to one thread). The host look reads thousands of tiny {@code /proc} files, a
 * syscall and some parsing each, and a cold JVM interprets that parsing: on two cores with one to spare, two
 * threads took from a third to nine tenths of one's cold time (fleet-process-observer/BENCHMARK.md): the
 * neighbours decide. Indices are handed out in small runs, so a slow process (a huge {@code fd/}) holds back
 * one thread only.
 */
final class TwoWorkers {

    /** Indices taken at a time: small enough to share the work evenly, large enough to share the counter rarely. */
    private static final int RUN = 32;

    interface Step {
        void run(ProcFileReader reader, int index);
    }

    private TwoWorkers() {
    }

    static void forEach(int count, Step step) {
        AtomicInteger next = new AtomicInteger();
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        Runnable work = () -> {
            ProcFileReader reader = new ProcFileReader();
            try {
                for (int from = next.getAndAdd(RUN); from < count; from = next.getAndAdd(RUN)) {
                    for (int i = from; i < Math.min(count, from + RUN); i++) {
                        step.run(reader, i);
                    }
                }
            } catch (RuntimeException e) {
                failure.compareAndSet(null, e);
            }
        };
        Thread other = null;
        if (count > RUN) {
            other = new Thread(work, "fleet-host-look");
            other.setDaemon(true);
            other.start();
        }
        work.run();
        if (other != null) {
            try {
                other.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while looking at the host's processes", e);
            }
        }
        if (failure.get() != null) {
            throw failure.get();
        }
    }
}
