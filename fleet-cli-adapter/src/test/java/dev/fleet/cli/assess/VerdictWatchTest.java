package dev.fleet.cli.assess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.Scenario;
import dev.fleet.domain.verdict.Verdict;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One look of {@code fleet watch}: it prints on a change only, and ends when its reader has gone. */
class VerdictWatchTest {

    @Test
    void aWatchPrintsOnlyWhenTheDigestChangesAndEndsWhenItsReaderHasGone() {
        List<Verdict> fleets = new ArrayList<>(List.of(Scenario.healthyFive().classify(),
                Scenario.healthyFive().classify(), Scenario.healthyFive().removeProcess(4101).classify(),
                Scenario.healthyFive().classify()));
        List<String> printed = new ArrayList<>();
        boolean[] readerThere = {true};
        VerdictWatch watch = new VerdictWatch(() -> fleets.remove(0),
                Verdict::verdictDigest, line -> {
                    printed.add(line);
                    return readerThere[0];
                });

        assertFalse(watch.step(), "the first look prints");
        assertFalse(watch.step(), "the same digest prints nothing");
        assertEquals(1, printed.size());
        readerThere[0] = false;
        assertTrue(watch.step(), "a changed verdict finds the reader gone: done");
        assertTrue(watch.readerGone());
        assertEquals(2, printed.size());
    }
}
