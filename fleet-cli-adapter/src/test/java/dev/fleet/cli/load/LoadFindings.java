package dev.fleet.cli.load;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one run of the load-and-fault suite ({@link LoadAndFaultIT}) found, from any of its threads: the
 * problems, kept in order, which fail it; and the figures and counts it prints at its end, which do not.
 */
final class LoadFindings {

    /**
     * A registration or heartbeat retries a busy registry for 30 s of wall time (the product's
     * deadline), which a quiet two-core host with fifty writers never needs more than 5 s of. On a
     * host this many times slower than a quiet one, 30 s may be less than those 5 s of work: a write
     * that then gives up, logs it and succeeds at a later heartbeat (as docs/CONTRACT.md allows) has
     * lost nothing, and is counted rather than failed. On a faster host it is a problem.
     */
    static final double STARVED = 30.0 / 5.0;

    private final ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
    private final Map<String, AtomicLong> counters = new ConcurrentHashMap<>();
    private final Map<String, String> figures = Collections.synchronizedMap(new LinkedHashMap<>());
    private final ConcurrentLinkedQueue<Long> callMillis = new ConcurrentLinkedQueue<>();
    private final AtomicLong quietMaxHeartbeatAgeMillis = new AtomicLong();
    /**
     * The highest {@link LoadPace#slowness()} seen at the calibration and by the row audit, in
     * thousandths: never while the fifty start, when their own start-up is the load, so that a host
     * counts as starved only for what else runs on it.
     */
    private final AtomicLong peakSlownessMillis = new AtomicLong();

    void problem(String problem) {
        problems.add(problem);
    }

    boolean isEmpty() {
        return problems.isEmpty();
    }

    int size() {
        return problems.size();
    }

    List<String> firstFew(int limit) {
        return problems.stream().limit(limit).toList();
    }

    void count(String name) {
        counters.computeIfAbsent(name, key -> new AtomicLong()).incrementAndGet();
    }

    void add(String name, long amount) {
        counters.computeIfAbsent(name, key -> new AtomicLong()).addAndGet(amount);
    }

    void figure(String name, String value) {
        figures.put(name, value);
    }

    /** One more value of a figure taken more than once (a settle after each fault), after the others. */
    void anotherFigure(String name, String value) {
        figures.merge(name, value, (a, b) -> a + ", " + b);
    }

    void callTook(long millis) {
        callMillis.add(millis);
    }

    /** The age of a live server's heartbeat as the row audit saw it outside any fault; the oldest is a figure. */
    void quietHeartbeatAge(long millis) {
        quietMaxHeartbeatAgeMillis.accumulateAndGet(millis, Math::max);
    }

    void noteSlowness(LoadPace pace) {
        peakSlownessMillis.accumulateAndGet((long) (pace.slowness() * 1000), Math::max);
    }

    double peakSlowness() {
        return peakSlownessMillis.get() / 1000.0;
    }

    boolean starved() {
        return peakSlownessMillis.get() / 1000.0 >= STARVED;
    }

    /** The figures, the counts and the tool calls' times, under {@code heading}. */
    String summary(String heading) {
        List<Long> calls = new ArrayList<>(callMillis);
        Collections.sort(calls);
        StringBuilder text = new StringBuilder(heading);
        figures.forEach((name, value) -> text.append("  ").append(name).append(": ").append(value).append('\n'));
        new TreeMap<>(counters).forEach((name, value) -> text.append("  ").append(name).append(": ")
                .append(value.get()).append('\n'));
        if (!calls.isEmpty()) {
            text.append(String.format(Locale.ROOT, "  tool calls: median %d ms, p95 %d ms, max %d ms%n",
                    calls.get(calls.size() / 2), calls.get(calls.size() * 95 / 100), calls.get(calls.size() - 1)));
        }
        text.append("  audit: oldest heartbeat outside faults: ").append(quietMaxHeartbeatAgeMillis.get())
                .append(" ms\n");
        text.append("  problems: ").append(problems.size()).append('\n');
        return text.toString();
    }
}
