package dev.fleet.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class PatienceTest {

    @Test
    void aQuietHostWaitsTheBaseAndABusyOneLongerInProportionToItsLoadPerCore() {
        assertEquals(1.0, Patience.fromLoadavg("0.50 0.40 0.30 1/300 4242", 2));
        assertEquals(37.0, Patience.fromLoadavg("74.00 60.00 20.00 3/900 4242", 2));
        assertEquals(3.0, Patience.fromLoadavg("6.00 1.00 1.00 2/300 4242", 2));
    }

    @Test
    void threadsRunnableNowCountBeforeTheAverageHasCaughtUp() {
        // A build that started a second ago: 13 runnable (the reader is one of them), average still low.
        assertEquals(6.0, Patience.fromLoadavg("0.80 0.40 0.30 13/300 4242", 2));
    }

    @Test
    void everyWaitStaysBoundedAndAnUnreadableLoadCountsAsQuiet() {
        assertEquals(Patience.MOST, Patience.fromLoadavg("900.00 900.00 900.00 1/9000 1", 2));
        assertEquals(1.0, Patience.fromLoadavg("", 2));
        assertEquals(1.0, Patience.fromLoadavg("garbage here", 2));
        assertEquals(1.0, Patience.fromLoadavg("NaN NaN NaN x/y 1", 2));
        assertEquals(4.0, Patience.fromLoadavg("4.00 0 0 1/1 1", 0), "no cores reported: one");
    }

    @Test
    void scaledNeverShortensTheBase() {
        Duration base = Duration.ofSeconds(20);
        assertTrue(Patience.scaled(base).compareTo(base) >= 0);
        assertTrue(Patience.scaled(base).compareTo(base.multipliedBy((long) Patience.MOST * 100)) <= 0);
    }
}
