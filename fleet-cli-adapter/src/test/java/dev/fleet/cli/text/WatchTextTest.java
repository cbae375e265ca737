package dev.fleet.cli.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.Roster;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Scenario;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** fleet watch's text, on verdicts of made-up fleets. */
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
    void anOrphanIsALineOfItsOwnNamingItsGoneClient() {
        WatchText text = new WatchText(ZoneOffset.UTC);
        text.render(Scenario.healthyFive().classify());
        Scenario orphaned = Scenario.healthyFive().server(RowBuilder.registered(
                Roster.defaultRoster().members().get(0), 5100).parent(900, RowBuilder.REGISTERED.minusSeconds(60)));

        String shown = text.render(orphaned.classify());

        assertTrue(shown.startsWith("03:00:00  orphaned_member  6/5 running\n"), shown);
        assertTrue(shown.contains("  + orphaned instance gitea-author/prgs-author pid 5100: its client pid 900 is gone\n"),
                shown);
        assertFalse(shown.contains("+ orphaned_member:"), "the orphan's own line stands for its blocked reason");
    }

    @Test
    void theDiffListsAppearedBeforeVanishedAndNothingTwice() {
        assertEquals(List.of("+ c", "- a"), WatchAnomalies.diff(Set.of("a", "b"), Set.of("b", "c")));
        assertEquals(List.of(), WatchAnomalies.diff(Set.of("a"), Set.of("a")));
        assertTrue(WatchAnomalies.of(Scenario.healthyFive().classify()).isEmpty());
    }
}
