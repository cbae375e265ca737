package dev.fleet.metrics;

import dev.fleet.domain.Failures;
import dev.fleet.domain.Printable;
import dev.fleet.domain.host.HostReport;
import java.io.PrintStream;
import java.util.function.Supplier;

/**
 * The host's report for {@code fleet_host_strays}, taken so that a look which fails at run time (a bug, a
 * {@code /proc} not as expected) costs that family alone, never the whole exposition: the fleet's own
 * series are what a scrape is for.
 */
public final class HostLook {

    /** Bounds the warning, which names the failure as its exception says it. */
    private static final int MAX_DETAIL = 300;

    private HostLook() {
    }

    /**
     * @param host the look, or null for an exposition without the family
     * @param warnings where one line says the family was omitted, and why (stderr: on stdio, stdout is the
     *     protocol's)
     * @return the report, or null (the family omitted) when there is no look or it failed
     */
    public static HostReport orOmitted(Supplier<HostReport> host, PrintStream warnings) {
        if (host == null) {
            return null;
        }
        try {
            return host.get();
        } catch (RuntimeException e) {
            // The failure in its own words, never its class, and nothing a terminal would obey (C1 and bidi included).
            String detail = Printable.of(Failures.oneLine(e));
            warnings.println("fleet: warning: the look at the host's MCP servers failed ("
                    + (detail.length() > MAX_DETAIL ? detail.substring(0, MAX_DETAIL) + "..." : detail)
                    + "); fleet_host_strays is omitted from this exposition");
            return null;
        }
    }
}
