package dev.fleet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.Scenario;
import dev.fleet.domain.verdict.JsonVerdict;
import dev.fleet.domain.verdict.Verdict;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** fleet watch's text and its loop step, on verdicts of made-up fleets. */
class WatchTextTest {

    @Test
    void oneLinePerChangeThenWhatAppearedAndWhatWentAway() {
        WatchText text = new WatchText(ZoneOffset.UTC);
        Scenario fleet = Scenario.healthyFive();
        assertEquals("03:00:00  gate satisfied  5/5 running\n", text.render(fleet.classify()));

        fleet.removeProcess(4101); // the reviewer is killed: its row stays, its process is gone
        String killed = text.render(fleet.classify());
        List<String> lines = killed.lines().toList();
        assertEquals("03:00:00  missing_member  4/5 running", lines.get(0));
        assertTrue(lines.contains("  + missing member gitea-reviewer/prgs-reviewer"), killed);
        assertTrue(lines.stream().skip(1).allMatch(line -> line.startsWith("  + ")), killed);

        String back = text.render(Scenario.healthyFive().classify());
        assertTrue(back.startsWith("03:00:00  gate satisfied  5/5 running\n"), back);
        assertTrue(back.contains("  - missing member gitea-reviewer/prgs-reviewer\n"), back);
        assertFalse(back.contains("  + "), back);
    }

    @Test
    void theDiffListsAppearedBeforeVanishedAndNothingTwice() {
        assertEquals(List.of("+ c", "- a"), WatchAnomalies.diff(Set.of("a", "b"), Set.of("b", "c")));
        assertEquals(List.of(), WatchAnomalies.diff(Set.of("a"), Set.of("a")));
        assertTrue(WatchAnomalies.of(Scenario.healthyFive().classify()).isEmpty());
    }

    @Test
    void aWatchPrintsOnlyWhenTheDigestChangesAndEndsWhenItsReaderHasGone() {
        List<Verdict> fleets = new ArrayList<>(List.of(Scenario.healthyFive().classify(),
                Scenario.healthyFive().classify(), Scenario.healthyFive().removeProcess(4101).classify(),
                Scenario.healthyFive().classify()));
        List<String> printed = new ArrayList<>();
        boolean[] readerThere = {true};
        VerdictWatch watch = new VerdictWatch(() -> new JsonVerdict(fleets.remove(0), "{}"),
                answer -> answer.verdict().verdictDigest(), line -> {
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
