package dev.fleet.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class TimestampsTest {

    @ParameterizedTest
    @CsvSource({
        "2026-07-28T02:00:00Z, 2026-07-28T02:00:00Z",
        "2026-07-28T02:00:00.5Z, 2026-07-28T02:00:00.500Z",
        "2026-07-28T02:00:00.123456789Z, 2026-07-28T02:00:00.123456789Z",
        "2026-07-28T02:00:00+00:00, 2026-07-28T02:00:00Z",
        "2026-07-28T04:00:00.250+02:00, 2026-07-28T02:00:00.250Z",
        "2026-07-27T21:00:00-0500, 2026-07-28T02:00:00Z",
        "2026-07-28T07:00:00+05, 2026-07-28T02:00:00Z",
        "2026-07-27T21:00:00.5-05, 2026-07-28T02:00:00.500Z",
    })
    void readsEveryAcceptedForm(String text, String expected) {
        assertEquals(Optional.of(Instant.parse(expected)), Timestamps.parse(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"not-a-time", "2026-07-28", "2026-07-28T02:00:00", "2026-07-28 02:00:00Z",
        "2026-07-28T02:00:00.Z", "2026-07-28T02:00:00.1234567890Z", "2026-13-28T02:00:00Z", "", " 2026-07-28T02:00:00Z",
        "9999-12-31T23:59:59-14:00", "2026-07-28T02:00:00+5", "2026-07-28T02:00:00+053", "2026-07-28T02:00:00+05:3"})
    void rejectsAnythingElse(String text) {
        assertTrue(Timestamps.parse(text).isEmpty());
    }

    @Test
    void writesUtcToTheMillisecond() {
        assertEquals("2026-07-28T02:00:00.000Z", Timestamps.format(Instant.parse("2026-07-28T02:00:00Z")));
        assertEquals("2026-07-28T02:00:00.123Z", Timestamps.format(Instant.parse("2026-07-28T02:00:00.123987Z")));
    }
}
