package dev.fleet.cli.assess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * How the dashboard's member cards look in a real browser, measured where the browser drew them: their
 * order, whether a value broke across lines or was cut, whether five fit side by side, and how
 * instances of different cohorts are told apart.
 */
final class DashboardLayout {

    /** The time zone the browser is told it is in: not UTC, and not on a whole hour, so a UTC time shows. */
    static final ZoneId ZONE = ZoneId.of("Asia/Kolkata");

    private DashboardLayout() {
    }

    /** Puts the browser in {@link #ZONE}, before it loads the page. */
    static void inZone(ChromeDriver browser) {
        browser.executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", ZONE.getId()));
    }

    /** The cards' profiles, in the order the page shows them. */
    @SuppressWarnings("unchecked")
    static List<String> profilesInOrder(ChromeDriver browser) {
        return (List<String>) script(browser).executeScript(
                "return [...document.querySelectorAll('#members .card')].map((c) => c.dataset.profile);");
    }

    /**
     * Every card in one row, none wider than its box, and the page no wider than the window: the
     * fleet fits at this width.
     */
    static void assertCardsInOneRow(ChromeDriver browser, int cards) {
        Map<String, Object> fit = measure(browser, """
                const cards = [...document.querySelectorAll('#members .card')];
                const root = document.documentElement, grid = document.getElementById('members');
                return {cards: cards.length, rows: new Set(cards.map((c) => Math.round(c.getBoundingClientRect().top))).size,
                  overflowing: cards.filter((c) => c.scrollWidth > c.clientWidth).length,
                  grid: grid.scrollWidth <= grid.clientWidth, page: root.scrollWidth <= root.clientWidth,
                  width: window.innerWidth};
                """);
        assertEquals(cards, ((Number) fit.get("cards")).intValue(), fit.toString());
        assertEquals(1, ((Number) fit.get("rows")).intValue(), "every card in one row: " + fit);
        assertEquals(0, ((Number) fit.get("overflowing")).intValue(), "no card overflows: " + fit);
        assertEquals(true, fit.get("grid"), "the grid does not overflow: " + fit);
        assertEquals(true, fit.get("page"), "the page does not scroll sideways: " + fit);
    }

    /**
     * Each instance's revision and time are drawn on one line (white-space nowrap, no second line
     * box), not cut at this width; the revision is the first 12 characters of {@code head}, the whole
     * of it in the title; the time is {@code registered_at} of {@code verdict} in {@link #ZONE},
     * the time alone or (another day) the date, with the instant in the title.
     */
    @SuppressWarnings("unchecked")
    static void assertRevisionsAndTimesOnOneLine(ChromeDriver browser, JsonNode verdict, String head) {
        Map<Long, String> registeredAt = new HashMap<>();
        verdict.get("members").forEach(member -> member.get("instances").forEach(instance -> registeredAt.put(
                instance.get("pid").asLong(), instance.get("registered_at").asText())));
        List<Map<String, Object>> instances = (List<Map<String, Object>>) script(browser).executeScript("""
                const value = (dl, field) => {
                  const dd = dl.querySelector('dd[data-field="' + field + '"]');
                  const range = document.createRange();
                  range.selectNodeContents(dd);
                  const boxes = [...range.getClientRects()].filter((r) => r.width > 0);
                  return {text: dd.textContent, title: dd.title, whiteSpace: getComputedStyle(dd).whiteSpace,
                    lines: boxes.filter((r) => r.top >= boxes[0].bottom - 1).length + 1,
                    cut: dd.scrollWidth > dd.clientWidth};
                };
                return [...document.querySelectorAll('#members dl.instance')].map((dl) => ({
                  pid: dl.querySelector('dd[data-field="pid"]').textContent,
                  revision: value(dl, 'revision'), since: value(dl, 'since')}));
                """);
        assertTrue(instances.size() >= 5, instances.toString());
        for (Map<String, Object> instance : instances) {
            Map<String, Object> revision = (Map<String, Object>) instance.get("revision");
            Map<String, Object> since = (Map<String, Object>) instance.get("since");
            for (Map<String, Object> value : List.of(revision, since)) {
                assertEquals("nowrap", value.get("whiteSpace"), instance.toString());
                assertEquals(1L, ((Number) value.get("lines")).longValue(), "one line: " + instance);
                assertEquals(false, value.get("cut"), "shown whole at this width: " + instance);
            }
            assertEquals(head.substring(0, 12), revision.get("text"), instance.toString());
            assertEquals(head, revision.get("title"), instance.toString());
            String iso = registeredAt.get(Long.parseLong((String) instance.get("pid")));
            ZonedDateTime local = Instant.parse(iso).atZone(ZONE);
            assertTrue(List.of(DateTimeFormatter.ofPattern("HH:mm:ss").format(local), DateTimeFormatter.ISO_LOCAL_DATE
                    .format(local)).contains(since.get("text")), "local time of " + iso + ": " + instance);
            assertTrue(((String) since.get("title")).contains(iso), instance.toString());
        }
    }

    /**
     * The instances of {@code profile}'s card are of two cohorts, told apart by their labels and
     * colours; every other instance, of {@code cohort}, has the label and colour of that cohort's
     * instance of {@code profile}.
     */
    @SuppressWarnings("unchecked")
    static void assertCohortsToldApart(ChromeDriver browser, String profile, String cohort) {
        List<Map<String, Object>> instances = (List<Map<String, Object>>) script(browser).executeScript("""
                return [...document.querySelectorAll('#members dl.instance')].map((dl) => {
                  const badge = dl.querySelector('.cohort');
                  return {profile: dl.closest('.card').dataset.profile, label: badge.textContent,
                    colour: getComputedStyle(badge).backgroundColor,
                    cohort: dl.querySelector('dd[data-field="cohort"] bdi').textContent};
                });
                """);
        List<Map<String, Object>> twins = instances.stream().filter(i -> profile.equals(i.get("profile"))).toList();
        assertEquals(2, twins.size(), instances.toString());
        assertNotEquals(twins.get(0).get("label"), twins.get(1).get("label"), "two cohorts, two labels: " + twins);
        assertNotEquals(twins.get(0).get("colour"), twins.get(1).get("colour"), "two cohorts, two colours: " + twins);
        Map<String, Object> first = twins.stream().filter(i -> cohort.equals(i.get("cohort"))).findFirst().orElseThrow();
        for (Map<String, Object> instance : instances) {
            if (cohort.equals(instance.get("cohort"))) {
                assertEquals(first.get("label"), instance.get("label"), "one cohort, one label: " + instances);
                assertEquals(first.get("colour"), instance.get("colour"), "one cohort, one colour: " + instances);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> measure(ChromeDriver browser, String js) {
        return (Map<String, Object>) script(browser).executeScript(js);
    }

    private static JavascriptExecutor script(ChromeDriver browser) {
        return browser;
    }
}
