package dev.fleet.domain.motion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RepeatTest {

    /** A clock that only the pause moves, and that a step may move to stand for its own cost. */
    private long now;
    private final List<Long> stepsAt = new ArrayList<>();

    private Repeat every(Duration interval) {
        return new Repeat(interval, () -> now, duration -> now += duration.toNanos());
    }

    @Test
    void stepsEveryIntervalUntilTheStepIsDone() throws InterruptedException {
        boolean done = every(Duration.ofSeconds(1)).until(() -> {
            stepsAt.add(now);
            return stepsAt.size() == 4;
        }, null);
        assertTrue(done);
        assertEquals(List.of(0L, 1_000_000_000L, 2_000_000_000L, 3_000_000_000L), stepsAt);
    }

    @Test
    void aSlowStepIsNotFollowedByAWholeInterval() throws InterruptedException {
        every(Duration.ofSeconds(1)).until(() -> {
            stepsAt.add(now);
            now += 300_000_000L; // the step itself takes 300 ms
            return stepsAt.size() == 3;
        }, null);
        assertEquals(List.of(0L, 1_000_000_000L, 2_000_000_000L), stepsAt);
    }

    @Test
    void atTheTimeoutTheStepRunsOnceMoreThenTheLoopSaysSo() throws InterruptedException {
        boolean done = every(Duration.ofSeconds(2)).until(() -> {
            stepsAt.add(now);
            return false;
        }, Duration.ofSeconds(5));
        assertFalse(done);
        assertEquals(List.of(0L, 2_000_000_000L, 4_000_000_000L, 5_000_000_000L), stepsAt);
    }
}
