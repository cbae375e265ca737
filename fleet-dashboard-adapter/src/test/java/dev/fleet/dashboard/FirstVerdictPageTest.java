package dev.fleet.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Scenario;
import dev.fleet.domain.verdict.Verdict;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The page as served already shows the latest verdict (a screenshot taken before its script runs
 * shows the fleet), with every value from a row as escaped text, and the server a member wraps under
 * its pid (the CLI shows it beside it).
 */
class FirstVerdictPageTest extends DashboardFixture {

    private static final String HOSTILE = "<script>window.x=1</script><img src=x onerror=\"y()\">'&\u202e";
    private static final Pattern CARD = Pattern.compile("<article class=\"card\" data-state=\"([a-z]+)\" "
            + "data-profile=\"([^\"]+)\">");

    @Test
    void thePageAsServedShowsTheVerdictItsCardsInTheRostersOrder() throws Exception {
        start(Dashboard.KEEP_ALIVE);
        String page = get("/").body();
        assertTrue(page.contains("<section id=\"gate\" class=\"gate\" data-state=\"satisfied\" aria-live=\"polite\">"),
                page);
        assertTrue(page.contains("<div id=\"gate-title\" class=\"gate-title\">GATE SATISFIED</div>"), page);
        assertTrue(page.contains("5 running of 5 expected"), page);
        assertTrue(page.contains("<code id=\"digest\">" + fleet.get().verdictDigest() + "</code>"), page);
        List<String> profiles = Roster.defaultRoster().members().stream().map(RosterMember::profile).toList();
        assertEquals(profiles, cards(page, "running"), "five running cards, in the roster's order");
        assertFalse(page.contains("{{"), "a slot left unfilled");
        assertFalse(page.contains("waiting for the first verdict"), page);
    }

    @Test
    void aWrappedServersPidStandsUnderItsMembersWithItsCommandInTheTitle() throws Exception {
        Scenario scenario = Scenario.empty();
        RosterMember author = Scenario.member("author");
        long pid = 4100;
        for (RosterMember member : scenario.roster.members()) {
            RowBuilder row = RowBuilder.registered(member, pid++);
            scenario.server(member.equals(author) ? row.wraps("python3 server.py --token ***", 5100, Scenario.STARTED)
                    : row);
        }
        scenario.process(5100, 4100L, Scenario.STARTED, "python3 server.py --token s3cr3t", "fleet");
        Verdict wrapped = scenario.classify();
        assertEquals(5100L, wrapped.members().stream().filter(m -> m.member().equals(author)).findFirst().orElseThrow()
                .instances().get(0).serverPid(), "the scenario wraps a server");
        fleet.set(wrapped);
        start(Dashboard.KEEP_ALIVE);
        String page = get("/").body();
        assertTrue(page.contains("<dd data-field=\"pid\" title=\"4100\"><bdi>4100</bdi></dd><dt>wraps</dt>"
                + "<dd data-field=\"wraps\" title=\"python3 server.py --token ***\"><bdi>5100</bdi></dd>"), page);
        assertEquals(1, page.split("data-field=\"wraps\"", -1).length - 1, "only the author wraps a server");
    }

    @Test
    void aRowsMarkupIsEscapedTextAndItsControlsWrittenOut() throws Exception {
        Scenario scenario = Scenario.healthyFive();
        scenario.server(RowBuilder.row(Scenario.member("author"), 4200).with(row -> row.cohortId = HOSTILE));
        fleet.set(scenario.classify());
        start(Dashboard.KEEP_ALIVE);
        String page = get("/").body();
        assertEquals(List.of("prgs-author"), cards(page, "duplicate"));
        String escaped = "&lt;script&gt;window.x=1&lt;/script&gt;&lt;img src=x onerror=&quot;y()&quot;&gt;&#39;&amp;"
                + "\\u202e";
        assertTrue(page.contains("<bdi>" + escaped + "</bdi>"), page);
        assertTrue(page.contains("title=\"cohort " + escaped + "\""), "the cohort badge's title: " + page);
        assertEquals(1, page.split("<script", -1).length - 1, "one script, the page's own");
        assertFalse(page.contains("<img"), page);
        assertFalse(page.contains("\u202e"), "a bidirectional control reached the page unescaped");
    }

    /** Served before any assessment has answered, the page says it waits, as it did before it drew one. */
    @Test
    void beforeTheFirstVerdictThePageSaysItWaits() {
        String page = new String(new FirstVerdictPage(PageAsset.PAGE.body(), Roster.defaultRoster()).render(null),
                java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(page.contains("data-state=\"unknown\" aria-live=\"polite\">"), page);
        assertTrue(page.contains("waiting for the first verdict…"), page);
        assertFalse(page.contains("{{"), page);
    }

    /** The profiles of the cards of {@code state}, in the page's order. */
    private static List<String> cards(String page, String state) {
        Matcher card = CARD.matcher(page);
        return card.results().filter(match -> match.group(1).equals(state)).map(match -> match.group(2)).toList();
    }
}
