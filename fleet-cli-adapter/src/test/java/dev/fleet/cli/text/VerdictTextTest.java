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

    /** Of two authors, the text says which is the dead client's and what to do about it. */
    @Test
    void anOrphanIsMarkedInTheMemberTableAndListedWithThePidToStop() {
        Scenario scenario = Scenario.healthyFive()
                .server(RowBuilder.registered(Scenario.member("author"), 5100).parent(900, Scenario.STARTED));

        String text = new VerdictText(new Ansi(false)).render(scenario.classify(), Path.of("/r.sqlite3"), "", "default");

        assertTrue(text.startsWith("GATE NOT SATISFIED  blocked by orphaned_member"), text);
        assertTrue(text.contains(" 4100,5100(orphan) "), text);
        assertTrue(text.contains("\norphaned instances (their client is gone):\n  gitea-author/prgs-author  pid 5100  "
                + "orphaned: client pid 900 is gone  runtime_id rt-prgs-author-5100\n"
                + "    action: stop pid 5100 yourself; no client will use it again\n"), text);
        assertTrue(text.contains("! orphaned_member: gitea-author/prgs-author pid 5100 (client pid 900 gone)\n"
                + "  action: Stop pid 5100 yourself: its client is gone"), text);
    }

    /** A member wrapping its server names it in the table; once the server is gone, the stale row says which. */
    @Test
    void aWrappedServerIsNamedBesideItsMember() {
        Scenario scenario = Scenario.healthyFive();
        scenario.rows.replaceAll(row -> row.pid() == 4100
                ? RowBuilder.from(row).wraps("python3 srv.py --token abc", 5100, Scenario.STARTED).build() : row);
        scenario.process(5100, 4100L, Scenario.STARTED, "python3 srv.py --token abc", "fleet");

        String text = new VerdictText(new Ansi(false)).render(scenario.classify(), Path.of("/r.sqlite3"), "", "default");
        assertTrue(text.startsWith("GATE SATISFIED"), text);
        assertTrue(text.contains(" 4100(wraps 5100) "), text);

        String gone = new VerdictText(new Ansi(false)).render(scenario.removeProcess(5100).classify(),
                Path.of("/r.sqlite3"), "", "default");
        assertTrue(gone.contains("\n  gitea-author/prgs-author  pid 4100 (wraps pid 5100)  server_exited  runtime_id "),
                gone);
    }
}
