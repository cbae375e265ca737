package dev.fleet.dashboard;

import dev.fleet.domain.Timestamps;
import dev.fleet.domain.motion.DigestChange;
import dev.fleet.domain.motion.Repeat;
import dev.fleet.domain.verdict.Verdict;
import dev.fleet.domain.verdict.VerdictDocument;
import jakarta.servlet.AsyncContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live verdict for every open page, fed by the machinery of {@code fleet watch}: one assessment
 * every interval ({@link Repeat}), and an event only when the digest changes ({@link DigestChange}),
 * so a heartbeat never makes one. However many pages are open, the fleet is assessed once per
 * interval, on one thread; pages hold no thread while they wait ({@link PageStream}).
 *
 * <p>Each event is {@code event: verdict}, {@code id: <digest>} and the verdict's canonical JSON
 * (the bytes of {@code fleet assess --format json}) as its one data line. Between them every page gets
 * an {@code alive} event each keep-alive period, {@code {"looked_at": <the latest look's observed_at>,
 * "keep_alive_ms": <the period>}}: the page sees it, so it can tell a quiet fleet (words keep coming) from a
 * dashboard that stopped or froze (no word for a few periods), and show when the latest look was (a verdict's
 * own time is its last change's); writing it is how a closed page is found and its stream freed.
 */
final class VerdictStream implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(VerdictStream.class);

    private final Supplier<Verdict> assess;
    private final Duration interval;
    private final int maxPages;
    private final Set<PageStream> pages = ConcurrentHashMap.newKeySet();
    /** Places taken: pages open, and pages being opened ({@link #reserve}). */
    private final AtomicInteger places = new AtomicInteger();
    private final DigestChange change = new DigestChange();
    private final ScheduledExecutorService keepAlive;
    private final long keepAliveMillis;
    private final Thread watcher;
    private volatile byte[] latest;
    /** The verdict of the last look, for the page as it is served; null until the first. */
    private volatile Verdict latestVerdict;
    /** Pages that may wait for the first look at once. */
    private static final int MAX_WAITING_PAGES = 4;

    /** How long {@link #close} waits for a look under way to see its interruption. */
    private static final Duration WATCHER_END = Duration.ofSeconds(5);

    private final CountDownLatch firstLook = new CountDownLatch(1);
    private final AtomicInteger waitingPages = new AtomicInteger();
    private volatile boolean closed;

    /**
     * @param assess a read-only assessment (the in-port)
     * @param interval how often to assess
     * @param keepAlivePeriod how often every page gets a comment line
     * @param maxPages streams held at once; one more is refused ({@link #reserve})
     */
    VerdictStream(Supplier<Verdict> assess, Duration interval, Duration keepAlivePeriod, int maxPages) {
        this.assess = Objects.requireNonNull(assess, "assess");
        this.interval = Objects.requireNonNull(interval, "interval");
        this.maxPages = maxPages;
        this.keepAlive = Executors.newSingleThreadScheduledExecutor(daemon("fleet-dashboard-keepalive"));
        this.keepAliveMillis = keepAlivePeriod.toMillis();
        this.keepAlive.scheduleWithFixedDelay(() -> broadcast(alive(latestVerdict, keepAliveMillis), false),
                keepAliveMillis, keepAliveMillis, TimeUnit.MILLISECONDS);
        this.watcher = daemon("fleet-dashboard-watch").newThread(this::watch);
        this.watcher.start();
    }

    /**
     * Takes a place for one more page, in one step (a look, then an add, let every page of a burst through
     * the check before any was added): false when all are taken. A place taken is given back by the page's
     * end, or by {@link #giveBack} when the page never opened.
     */
    boolean reserve() {
        return places.getAndUpdate(taken -> taken < maxPages ? taken + 1 : taken) < maxPages;
    }

    /** A place {@link #reserve}d for a page that never reached {@link #open}. */
    void giveBack() {
        places.decrementAndGet();
    }

    /**
     * Opens a page's stream on {@code async} (an SSE response whose headers are set), in a place
     * {@link #reserve}d for it, which gets the current verdict at once and every change after it. The
     * place is given back once, when the page ends, or here when it cannot open.
     */
    void open(AsyncContext async) throws IOException {
        PageStream[] self = new PageStream[1];
        Runnable ended = () -> {
            if (pages.remove(self[0])) {
                places.decrementAndGet();
            }
        };
        byte[] verdict = latest;
        // The verdict now, and at once when the latest look was: the verdict's own time is that of its last change.
        byte[] first = verdict == null ? null : join(verdict, alive(latestVerdict, keepAliveMillis));
        PageStream page = new PageStream(async, first, ended);
        self[0] = page;
        pages.add(page);
        try {
            page.open();
        } catch (RuntimeException e) {
            ended.run();
            throw e;
        }
    }

    /**
     * The verdict of the last look, waiting at most {@code patience} for the first one (the dashboard
     * has just started); null when there is none yet.
     */
    Verdict latestVerdict(Duration patience) throws InterruptedException {
        // Each waiting page holds one of the server's threads: a few may wait, more are answered at once.
        if (firstLook.getCount() > 0) {
            try {
                if (waitingPages.incrementAndGet() <= MAX_WAITING_PAGES) {
                    firstLook.await(patience.toMillis(), TimeUnit.MILLISECONDS);
                }
            } finally {
                waitingPages.decrementAndGet();
            }
        }
        return latestVerdict;
    }

    /** Open streams now: a closed page's is gone within two keep-alive periods. */
    int openPages() {
        return pages.size();
    }

    /**
     * Stops the looks and ends every page. A look under way is interrupted and waited for (bounded), so
     * nothing of the stream speaks once this returns: a dashboard refused its port says one line only.
     */
    @Override
    public void close() {
        closed = true;
        firstLook.countDown(); // no page waits for a look that is not coming
        watcher.interrupt();
        keepAlive.shutdownNow();
        pages.forEach(PageStream::close);
        try {
            watcher.join(WATCHER_END.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void watch() {
        Repeat every = new Repeat(interval, System::nanoTime, pause -> Thread.sleep(pause.toMillis()));
        try {
            every.until(this::step, null);
        } catch (InterruptedException stopping) {
            Thread.currentThread().interrupt();
        }
    }

    /** One look: assess, and tell every page when the digest changed. True when the stream is closed. */
    private boolean step() {
        if (closed) {
            return true;
        }
        Verdict verdict;
        try {
            verdict = assess.get();
        } catch (RuntimeException e) {
            if (closed) {
                return true; // interrupted by close(): no failure, and nobody left to tell
            }
            // An assessment answers every registry or process-table problem as a verdict: this is a bug.
            // The pages keep the last verdict, and the next look tries again.
            LOG.warn("dashboard: the assessment failed: {}", e.toString());
            firstLook.countDown(); // a page waits for no verdict that is not coming
            return false;
        }
        latestVerdict = verdict;
        firstLook.countDown();
        if (change.isChange(verdict.verdictDigest())) {
            byte[] event = event(verdict);
            latest = event;
            broadcast(event, true);
        }
        return closed;
    }

    private void broadcast(byte[] event, boolean replacesPending) {
        for (PageStream page : pages) {
            page.send(event, replacesPending);
        }
    }

    /**
     * The keep-alive event: when the latest look was made (null before the first) and how often this event comes.
     * Its JSON is written here: a timestamp of fleet's own format (ASCII digits and punctuation) and a number.
     */
    static byte[] alive(Verdict latest, long periodMillis) {
        String lookedAt = latest == null ? "null" : "\"" + Timestamps.format(latest.observation().observedAt()) + "\"";
        return ("event: alive\ndata: {\"looked_at\":" + lookedAt + ",\"keep_alive_ms\":" + periodMillis + "}\n\n")
                .getBytes(StandardCharsets.US_ASCII);
    }

    /** The SSE event of one verdict; its canonical JSON is one line (every control character is escaped). */
    static byte[] event(Verdict verdict) {
        return ("event: verdict\nid: " + verdict.verdictDigest() + "\ndata: " + VerdictDocument.canonicalJson(verdict)
                + "\n\n").getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] join(byte[] first, byte[] second) {
        byte[] both = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }

    private static ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
