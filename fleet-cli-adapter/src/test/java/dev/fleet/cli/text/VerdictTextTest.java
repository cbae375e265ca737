package dev.fleet.cli.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Scenario;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class VerdictTextTest {

    /** The text answer is cut at the same 100 entries as the JSON, and says how many it left out. */
    @Test
    void aLongListShowsAHundredEntriesAndCountsTheRest() {
        Scenario scenario = Scenario.healthyFive();
        for (int i = 0; i < 250; i++) {
            scenario.row(RowBuilder.row(Scenario.member("author"), 90_000 + i));
        }

        String text = new VerdictText(new Ansi(false)).render(scenario.classify(), Path.of("/r.sqlite3"), "", "default");

        assertTrue(text.contains("\n  ... and 150 more (not shown)\n"), text);
        assertEquals(100, text.lines().filter(line -> line.contains(" process_exited  runtime_id ")).count(), text);
    }
}
