package dev.fleet.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.testing.Patience;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Many open pages hold no thread each, and a page that closes frees its stream. */
class ManyPagesTest extends DashboardFixture {

    private static final int PAGES = 50;
    /**
     * The dashboard's pool, its keep-alive and its watch: what the server may add to this JVM's
     * threads whatever the pages do. A thread per page would be fifty more.
     */
    private static final int MORE_THREADS_AT_MOST = Dashboard.MAX_THREADS + 2;

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

    @Test
    void fiftyOpenPagesHoldNoThreadEachAndEveryClosedOneFreesItsStream() throws Exception {
        start(Duration.ofMillis(200));
        int before = threads.getThreadCount() - dashboardThreads();
        List<EventStream> pages = new ArrayList<>();
        try {
            for (int i = 0; i < PAGES; i++) {
                EventStream page = new EventStream();
                pages.add(page);
                assertEquals(fleet.get().verdictDigest(), page.nextDigest(), "page " + i + " gets the verdict");
            }
            assertEquals(PAGES, running.openPages());
            int during = threads.getThreadCount();
            assertTrue(during - before <= MORE_THREADS_AT_MOST, "threads " + before + " -> " + during + " for "
                    + PAGES + " pages");
            assertTrue(dashboardThreads() <= MORE_THREADS_AT_MOST, "the pool is bounded");
            // The server still answers everything else at once, and every page still gets each change.
            assertEquals(200, get("/verdict").statusCode());
            fleet.set(verdict(1, true));
            for (EventStream page : pages) {
                assertEquals(fleet.get().verdictDigest(), page.nextDigest());
            }
        } finally {
            for (EventStream page : pages) {
                page.close();
            }
        }
        Patience.await(Duration.ofSeconds(30), Duration.ofMillis(50), () -> running.openPages() == 0,
                "every closed page's stream freed (open: " + running.openPages() + ")");
        assertTrue(dashboardThreads() <= MORE_THREADS_AT_MOST, "closing fifty pages cannot grow the pool past its bound");
        running.close();
        Patience.await(Duration.ofSeconds(30), Duration.ofMillis(100), () -> dashboardThreads() == 0,
                "a closed dashboard leaves no thread of its own");
    }

    /**
     * Pages opened in a burst take their places in one step each: a look and then an add let a burst of
     * 300 through where 128 may be (a reviewer saw 131 streams held). Twelve threads at once, four places.
     */
    @Test
    void aBurstOfPagesTakesNoMorePlacesThanThereAre() throws Exception {
        VerdictStream stream = new VerdictStream(fleet::get, Duration.ofHours(1), Duration.ofHours(1), 4);
        try {
            ExecutorService burst = Executors.newFixedThreadPool(12);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Boolean>> taken = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                taken.add(burst.submit(() -> {
                    go.await();
                    return stream.reserve();
                }));
            }
            go.countDown();
            int places = 0;
            for (Future<Boolean> one : taken) {
                places += one.get(30, TimeUnit.SECONDS) ? 1 : 0;
            }
            burst.shutdown();
            assertEquals(4, places);
            assertFalse(stream.reserve(), "all four are taken");
            stream.giveBack();
            assertTrue(stream.reserve(), "a place given back is free again");
        } finally {
            stream.close();
        }
    }

    /** The dashboard's own threads in this JVM: its pool, its watch and its keep-alive. */
    private static int dashboardThreads() {
        return (int) Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().startsWith(Dashboard.THREAD_NAME)).count();
    }
}
