package dev.fleet.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.function.BooleanSupplier;

/**
 * How long a test may wait on this host, now: every wait a test makes on another process (an MCP
 * handshake, a response, a row) is written for a quiet two-core host and scaled by how busy the host
 * is when the wait starts. A suite run beside another build on two cores sees load averages of 6 to
 * 74, where a JVM that starts in 1 s on a quiet host takes half a minute: a fixed timeout then fails
 * for the host's sake, not the code's. What a test asserts stays what was lost or wrong, never how fast.
 *
 * <p>The measure is the host's runnable load per core ({@code /proc/loadavg}: the 1-minute average or
 * the threads runnable right now, whichever is higher), at least 1, at most {@link #MOST}, so every
 * wait stays bounded. {@code -Dfleet.test.patience=N} multiplies it for a host slower than load says
 * (a slow disk, a throttled container). Without {@code /proc} the factor is 1 (times the property).
 */
public final class Patience {

    /** The largest factor the load can give: some 80 runnable threads on two cores. */
    public static final double MOST = 40;

    /**
     * An MCP client's wait for {@code initialize} and for each request on a quiet host: a cold server
     * JVM answers its handshake in about a second there. Every MCP client in the tests takes
     * {@link #mcpTimeout()} for both, so none keeps the SDK's fixed 20 s.
     */
    public static final Duration MCP_TIMEOUT = Duration.ofSeconds(60);

    private static final Path LOADAVG = Path.of("/proc/loadavg");

    private Patience() {
    }

    /** {@code base}, as a quiet two-core host needs it (with room), scaled for this host now. */
    public static Duration scaled(Duration base) {
        return Duration.ofMillis((long) Math.ceil(base.toMillis() * factor()));
    }

    /** {@link #MCP_TIMEOUT} scaled: for an MCP client's {@code requestTimeout} and {@code initializationTimeout}. */
    public static Duration mcpTimeout() {
        return scaled(MCP_TIMEOUT);
    }

    /** How much slower than a quiet two-core host this one is now: load per core (1 to {@link #MOST}) times the property. */
    public static double factor() {
        return loadFactor() * property();
    }

    /** The load part of {@link #factor()}, for a test that measures its own calibration beside it. */
    public static double loadFactor() {
        return fromLoadavg(read(), Runtime.getRuntime().availableProcessors());
    }

    /** {@code -Dfleet.test.patience}, 1 when unset or not a positive number. */
    public static double property() {
        try {
            double value = Double.parseDouble(System.getProperty("fleet.test.patience", "1"));
            return value > 0 && Double.isFinite(value) ? value : 1;
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    /**
     * Polls {@code condition} every {@code poll} until it holds, for at most {@code base} scaled;
     * past that, fails with {@code what} and the factor.
     */
    public static void await(Duration base, Duration poll, BooleanSupplier condition, String what)
            throws InterruptedException {
        long deadline = System.nanoTime() + scaled(base).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + " (" + describe() + ")");
            }
            Thread.sleep(poll.toMillis());
        }
    }

    /** A one-line account of the factor, for a failure message. */
    public static String describe() {
        return String.format(Locale.ROOT, "patience factor %.1f (/proc/loadavg '%s', %d cores, fleet.test.patience %.1f)",
                factor(), read().trim(), Runtime.getRuntime().availableProcessors(), property());
    }

    /**
     * The load factor from a {@code /proc/loadavg} line ({@code 1.23 0.45 0.67 3/456 789}): the larger
     * of the 1-minute average and the runnable count, per core, within 1 and {@link #MOST}.
     */
    static double fromLoadavg(String loadavg, int cores) {
        String[] fields = loadavg.trim().split("\\s+");
        double load = 0;
        try {
            if (fields.length > 0 && !fields[0].isEmpty()) {
                load = Double.parseDouble(fields[0]);
            }
            if (fields.length > 3 && fields[3].contains("/")) {
                // The count includes the reader itself.
                load = Math.max(load, Integer.parseInt(fields[3].substring(0, fields[3].indexOf('/'))) - 1);
            }
        } catch (NumberFormatException e) {
            load = 0;
        }
        double perCore = load / Math.max(1, cores);
        return Double.isFinite(perCore) ? Math.min(MOST, Math.max(1, perCore)) : 1;
    }

    private static String read() {
        try {
            return Files.readString(LOADAVG, StandardCharsets.US_ASCII);
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }
}
