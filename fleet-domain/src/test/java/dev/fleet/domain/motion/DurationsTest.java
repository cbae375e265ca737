package dev.fleet.domain.motion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

    @Test
    void readsTheFourUnits() {
        assertEquals(Duration.ofMillis(500), Durations.parse("500ms"));
        assertEquals(Duration.ofSeconds(2), Durations.parse("2s"));
        assertEquals(Duration.ofMinutes(5), Durations.parse("5m"));
        assertEquals(Duration.ofHours(1), Durations.parse("1h"));
        assertEquals(Duration.ZERO, Durations.parse("0s"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "1", "s", "1.5s", "-1s", "+1s", " 1s", "1s ", "1 s", "1S", "1sec", "1d", "PT1S",
        "1h30m", "９s", "9999999999999s"})
    void refusesAnythingElseInOneLineThatSaysWhatToWrite(String text) {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> Durations.parse(text));
        assertTrue(error.getMessage().contains("500ms, 2s, 5m, 1h"), error.getMessage());
        assertTrue(error.getMessage().lines().count() <= 1, error.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"9999999999999s", "99999999999999999999h", "9223372036854775807h"})
    void aDurationWrittenAsAskedButFarTooLongIsCalledTooLongNotNoDuration(String text) {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> Durations.parse(text));
        assertTrue(error.getMessage().contains("is longer than any duration option takes"), error.getMessage());
    }

    @Test
    void formatsInTheSameSyntax() {
        assertEquals("1h", Durations.format(Duration.ofHours(1)));
        assertEquals("24h", Durations.format(Duration.ofHours(24)));
        assertEquals("90s", Durations.format(Duration.ofSeconds(90)));
        assertEquals("5m", Durations.format(Duration.ofMinutes(5)));
        assertEquals("1500ms", Durations.format(Duration.ofMillis(1500)));
        assertEquals("0s", Durations.format(Duration.ZERO));
        for (String text : new String[] {"500ms", "2s", "5m", "1h", "60s"}) {
            assertEquals(Durations.parse(text), Durations.parse(Durations.format(Durations.parse(text))));
        }
    }
}
