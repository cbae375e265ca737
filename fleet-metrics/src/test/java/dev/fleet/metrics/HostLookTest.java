package dev.fleet.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.host.HostReport;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** A look at the host that fails at run time costs {@code fleet_host_strays} alone, with one warning line. */
class HostLookTest {

    private static final Supplier<HostReport> BROKEN = () -> {
        throw new IllegalStateException("unexpected /proc \u009b2J\u202e\nsecond line");
    };

    @Test
    void aFailedLookIsOmittedWithOneWarningLine() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertNull(HostLook.orOmitted(BROKEN, new PrintStream(err, true, StandardCharsets.UTF_8)));
        String warning = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, warning.lines().count(), warning);
        assertTrue(warning.startsWith("fleet: warning: ") && warning.contains("unexpected /proc")
                && warning.contains("fleet_host_strays"), warning);
        // In its own words, never its class; a terminal's C1 and bidi controls shown, not obeyed.
        assertFalse(warning.contains("IllegalStateException"), warning);
        assertTrue(warning.contains("\\x9b2J\\u202e") && !warning.contains("\u009b") && !warning.contains("\u202e"),
                warning);

        HostReport report = HostStrayMetricsTest.host();
        assertSame(report, HostLook.orOmitted(() -> report, new PrintStream(err, true, StandardCharsets.UTF_8)));
        assertNull(HostLook.orOmitted(null, new PrintStream(err, true, StandardCharsets.UTF_8)));
        assertEquals(1, err.toString(StandardCharsets.UTF_8).lines().count(), "only the failure warns");
    }

    @Test
    void aScrapeWhoseLookFailsIsTheFleetsSeriesWithoutTheHostFamily() {
        Fleets.Fleet fleet = Fleets.satisfied();
        for (MetricsFormat format : MetricsFormat.values()) {
            MetricsScrape scrape = new MetricsScrape(fleet::verdict, fleet.roster(), Fleets.BUILD, BROKEN);
            String body = new String(scrape.answer(Collections.enumeration(List.of(
                    format == MetricsFormat.OPENMETRICS ? "application/openmetrics-text; version=1.0.0" : "text/plain")))
                    .body(), StandardCharsets.UTF_8);
            assertEquals(new String(fleet.exposition(format), StandardCharsets.UTF_8), body);
            assertFalse(body.contains("fleet_host_strays"), body);
        }
    }
}
