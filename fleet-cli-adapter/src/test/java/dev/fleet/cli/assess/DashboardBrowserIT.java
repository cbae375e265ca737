package dev.fleet.cli.assess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.ServeProcess;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.testing.Patience;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * {@code fleet dashboard} in a real browser: headless Chromium on the page of a real dashboard (the
 * packaged jar) over five real {@code fleet serve} members. The page shows the satisfied gate with the
 * members in the roster's order, then a sixth server of another client cohort, its duplicate within two
 * intervals of its registration, then its leaving, each in the timeline; while it is there, the five
 * cards fit side by side at 1280 px, every revision and time on one line (the time the browser's own),
 * and the two cohorts' instances have different labels and colours. A registry row carrying markup is
 * shown as text; and a runtime id's right-to-left override is shown, not obeyed.
 */
class DashboardBrowserIT {

    private static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final Map<String, String> COHORT = Map.of("GITEA_MCP_COHORT_ID", "one-client");
    private static final Map<String, String> SECOND_COHORT = Map.of("GITEA_MCP_COHORT_ID", "second-client");
    /** The roster's order (TestFleets.roster), which is not the namespaces' alphabetical one. */
    private static final List<String> ROSTER_ORDER = List.of("prgs-author", "prgs-reviewer", "prgs-controller",
            "prgs-merger", "prgs-reconciler");
    private static final String HOSTILE = "<script>window.fleetInjected=1</script><img src=x onerror=\"window.fleetInjected=2\">";
    private static final String RIGHT_TO_LEFT_OVERRIDE = "\u202e";
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void thePageShowsTheGateADuplicateComingAndGoingAndRowsAsText(@TempDir Path dir) throws Exception {
        Path registry = dir.resolve("control_plane.sqlite3");
        Path roster = TestFleets.roster(registry);
        List<ServeProcess> servers = new ArrayList<>();
        ChromeDriver browser = null;
        try (FleetInMotion dashboard = FleetInMotion.start(dir, "dashboard", "--registry", registry.toString(),
                "--roster", roster.toString(), "--port", "0", "--interval", "1s")) {
            for (String profile : ROSTER_ORDER) {
                servers.add(ServeProcess.start(registry, profile, COHORT));
            }
            TestFleets.awaitRunningRows(registry, 5);
            dashboard.await(() -> dashboard.stdout().startsWith("http://127.0.0.1:"), "the dashboard says where it is");
            URI page = URI.create(dashboard.lines().get(0));

            browser = HeadlessChromium.start(dir.resolve("chromium"), Patience.scaled(Duration.ofSeconds(60)));
            DashboardLayout.inZone(browser);
            browser.get(page.toString());
            waitFor(browser, Duration.ofSeconds(60), "the gate satisfied",
                    d -> "satisfied".equals(gate(d).getDomAttribute("data-state")));
            // Opened again: on a loaded host the first open may have shown a look taken before the last
            // member registered, and the timeline's first entry is to be the satisfied gate.
            browser.navigate().refresh();
            waitFor(browser, Duration.ofSeconds(60), "the gate satisfied on a page opened again",
                    d -> "satisfied".equals(gate(d).getDomAttribute("data-state")));
            assertEquals("GATE SATISFIED", text(browser, "gate-title"));
            assertEquals(5, browser.findElements(By.cssSelector("#members .card[data-state='running']")).size());
            assertTrue(text(browser, "gate-counts").startsWith("5 running of 5 expected"), text(browser, "gate-counts"));
            assertTrue(text(browser, "digest").startsWith("sha256:"));
            assertVerdictIsAssess(page, registry, roster);
            assertEquals(ROSTER_ORDER, DashboardLayout.profilesInOrder(browser), "the roster's order");

            ServeProcess sixth = ServeProcess.start(registry, "prgs-author", SECOND_COHORT);
            servers.add(sixth);
            TestFleets.awaitRunningRows(registry, 6);
            // Two intervals from its registration, on a quiet host; scaled on a loaded one. (Before its
            // row was written, its process was an unregistered_process, which the page may have shown.)
            waitFor(browser, INTERVAL.multipliedBy(2), "the duplicate within two intervals",
                    d -> d.findElement(By.id("gate-reason")).getText().startsWith("blocked by duplicate_member"));
            assertEquals("blocked", gate(browser).getDomAttribute("data-state"));
            assertEquals(1, browser.findElements(By.cssSelector("#members .card[data-state='duplicate']")).size());
            assertTrue(timeline(browser, "appeared").contains("+ duplicate member gitea-author/prgs-author: pids "),
                    timeline(browser, "appeared"));
            waitFor(browser, Duration.ofSeconds(30), "the sixth server's card", d -> d.findElements(
                    By.cssSelector("#members .card[data-profile='prgs-author'] dl.instance")).size() == 2);
            assertEquals(ROSTER_ORDER, DashboardLayout.profilesInOrder(browser), "the roster's order");
            DashboardLayout.assertCardsInOneRow(browser, 5);
            DashboardLayout.assertRevisionsAndTimesOnOneLine(browser, verdict(page), TestFleets.HEAD);
            DashboardLayout.assertCohortsToldApart(browser, "prgs-author", "one-client");
            screenshot(browser, "dashboard-duplicate.png");

            sixth.closeStdinAndDrain();
            waitFor(browser, Duration.ofSeconds(30), "the duplicate gone",
                    d -> "satisfied".equals(gate(d).getDomAttribute("data-state")));
            assertTrue(timeline(browser, "left").contains("- duplicate member gitea-author/prgs-author"),
                    timeline(browser, "left"));
            List<String> digests = browser.findElements(By.cssSelector("#timeline > li")).stream()
                    .map(entry -> entry.getDomAttribute("data-digest")).toList();
            for (int i = 1; i < digests.size(); i++) {
                assertTrue(!digests.get(i).equals(digests.get(i - 1)), "one entry per digest change: " + digests);
            }
            List<org.openqa.selenium.WebElement> entries = browser.findElements(By.cssSelector("#timeline > li"));
            assertTrue(entries.get(entries.size() - 1).getText().contains("gate satisfied · 5/5 running · page opened"),
                    entries.get(entries.size() - 1).getText());

            insertHostileRow(registry);
            waitFor(browser, Duration.ofSeconds(30), "the hostile row listed",
                    d -> d.findElement(By.id("anomalies")).getText().contains(HOSTILE));
            JavascriptExecutor script = browser;
            assertEquals(null, script.executeScript("return window.fleetInjected;"), "a row ran script");
            assertEquals(1L, script.executeScript("return document.scripts.length;"), "a row added a script");
            assertEquals(0, browser.findElements(By.tagName("img")).size(), "a row added markup");
            screenshot(browser, "dashboard-hostile.png");

            insertMalformedRow(registry, "bidi-" + RIGHT_TO_LEFT_OVERRIDE);
            waitFor(browser, Duration.ofSeconds(30), "the malformed row listed",
                    d -> !d.findElements(By.cssSelector("#anomalies li[data-code='malformed']")).isEmpty());
            assertPageWordsReadInOrder(browser);
            screenshot(browser, "dashboard-bidi.png");
        } finally {
            if (browser != null) {
                browser.quit();
            }
            servers.forEach(ServeProcess::close);
        }
    }

    /**
     * A row's runtime id ending in U+202E (right-to-left override) must not turn the page's own words
     * after it into their mirror image: a person reads {@code registered_at_unparseable} left to
     * right wherever the id is shown, sees the override written out (a backslash, u and 202e) as the
     * text output writes it, and the id sits in a {@code <bdi>} of its own, so its direction stays in it.
     */
    private static void assertPageWordsReadInOrder(ChromeDriver browser) {
        String word = "registered_at_unparseable";
        assertEquals("left to right", readingOrder(browser, browser.findElement(By.id("gate-reason")), word),
                "the gate's reason: " + text(browser, "gate-reason"));
        for (String code : List.of("malformed_registration", "malformed")) {
            org.openqa.selenium.WebElement entry = browser.findElement(By.cssSelector(
                    "#anomalies li[data-code='" + code + "']"));
            assertEquals("left to right", readingOrder(browser, entry, word), "the anomaly " + code);
        }
        org.openqa.selenium.WebElement appeared = browser.findElements(By.cssSelector("#timeline li.appeared")).stream()
                .filter(line -> line.getText().contains("malformed registration")).findFirst().orElseThrow();
        assertEquals("left to right", readingOrder(browser, appeared, word), "the timeline: " + appeared.getText());
        String listed = browser.findElement(By.cssSelector("#anomalies li[data-code='malformed']")).getText();
        assertTrue(listed.contains("runtime_id bidi-\\u202e: " + word), listed);
        JavascriptExecutor script = browser;
        String shown = (String) script.executeScript("return document.body.innerText;");
        assertTrue(!shown.matches("(?s).*[\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069].*"),
                "a bidirectional control reached the page unescaped");
        assertEquals("BDI", script.executeScript("return [...document.querySelectorAll('#anomalies li[data-code=malformed] *')]"
                + ".find((e) => e.textContent === arguments[0])?.tagName;", "bidi-\\u202e"), "the id isolated");
    }

    /**
     * Where the characters of {@code word}, the first text of {@code root} holding it, are drawn: each
     * right of the one before on the same line, or on a line below, is "left to right".
     */
    private static String readingOrder(ChromeDriver browser, org.openqa.selenium.WebElement root, String word) {
        return (String) ((JavascriptExecutor) browser).executeScript("""
                const [root, word] = arguments;
                const texts = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
                for (let node = texts.nextNode(); node; node = texts.nextNode()) {
                  const at = node.data.indexOf(word);
                  if (at < 0) continue;
                  const range = document.createRange();
                  const boxes = [...word].map((c, i) => {
                    range.setStart(node, at + i);
                    range.setEnd(node, at + i + 1);
                    return range.getBoundingClientRect();
                  });
                  for (let i = 1; i < boxes.length; i++) {
                    const before = boxes[i - 1], now = boxes[i];
                    if (!(now.left > before.left || now.top >= before.bottom)) {
                      return 'out of order: ' + word[i] + ' at x ' + now.left + ' after ' + word[i - 1] + ' at x '
                        + before.left;
                    }
                  }
                  return 'left to right';
                }
                return 'not shown in one piece: ' + root.textContent;
                """, root, word);
    }

    private static JsonNode verdict(URI page) throws Exception {
        return JSON.readTree(HttpClient.newHttpClient().send(HttpRequest.newBuilder(page.resolve("/verdict")).build(),
                HttpResponse.BodyHandlers.ofString()).body());
    }

    /** GET /verdict is assess --format json for the same fleet: the same digest, every field but the observation. */
    private static void assertVerdictIsAssess(URI page, Path registry, Path roster) throws Exception {
        HttpResponse<String> served = HttpClient.newHttpClient().send(HttpRequest.newBuilder(page.resolve("/verdict"))
                .build(), HttpResponse.BodyHandlers.ofString());
        FleetJar.Run assess = FleetJar.run("assess", "--format", "json", "--registry", registry.toString(), "--roster",
                roster.toString());
        JsonNode fromPage = JSON.readTree(served.body());
        JsonNode fromAssess = assess.stdoutJson();
        assertEquals(fromAssess.get("verdict_digest"), fromPage.get("verdict_digest"));
        ((com.fasterxml.jackson.databind.node.ObjectNode) fromPage).remove("observation");
        ((com.fasterxml.jackson.databind.node.ObjectNode) fromAssess).remove("observation");
        assertEquals(fromAssess, fromPage);
        assertTrue(served.body().endsWith("\n") && served.body().indexOf('\n') == served.body().length() - 1,
                "one line, as assess prints it");
    }

    /** A running row another tool wrote, its client cohort and provenance carrying markup, on a pid no process has. */
    private static void insertHostileRow(Path registry) throws Exception {
        insertRunningRow(registry, "hostile-" + HOSTILE, 2147483000L, HOSTILE, HOSTILE, Instant.now().toString());
    }

    /** A running row on a pid no process has, whose registration time is no time: malformed. */
    private static void insertMalformedRow(Path registry, String runtimeId) throws Exception {
        insertRunningRow(registry, runtimeId, 2147483001L, "one-client", "unknown", "yesterday");
    }

    /** A running row of the author, as another tool writes one: every text as given, heartbeat now. */
    private static void insertRunningRow(Path registry, String runtimeId, long pid, String cohort, String provenance,
            String registeredAt) throws Exception {
        try (Connection sqlite = DriverManager.getConnection("jdbc:sqlite:" + registry);
                PreparedStatement insert = sqlite.prepareStatement("INSERT INTO mcp_server_runtimes (runtime_id, "
                        + "namespace, profile, role, remote, org, repo, repository_root, pid, cohort_id, cohort_source, "
                        + "client_provenance, status, registered_at, last_heartbeat_at) VALUES (?, 'gitea-author', "
                        + "'prgs-author', 'author', 'prgs', 'Scaled-Tech-Consulting', 'Gitea-Tools', '/x', ?, "
                        + "?, 'env', ?, 'running', ?, ?)")) {
            insert.setString(1, runtimeId);
            insert.setLong(2, pid);
            insert.setString(3, cohort);
            insert.setString(4, provenance);
            insert.setString(5, registeredAt);
            insert.setString(6, Instant.now().toString());
            insert.executeUpdate();
        }
    }

    private static void waitFor(WebDriver browser, Duration base, String what, Function<WebDriver, Boolean> shown) {
        new WebDriverWait(browser, Patience.scaled(base), Duration.ofMillis(50)).withMessage(() -> what + " ("
                + Patience.describe() + "); the page said: " + browser.findElement(By.tagName("body")).getText())
                .until(shown);
    }

    private static org.openqa.selenium.WebElement gate(WebDriver browser) {
        return browser.findElement(By.id("gate"));
    }

    private static String text(WebDriver browser, String id) {
        return browser.findElement(By.id(id)).getText();
    }

    private static String timeline(WebDriver browser, String kind) {
        return String.join("\n", browser.findElements(By.cssSelector("#timeline li." + kind)).stream()
                .map(org.openqa.selenium.WebElement::getText).toList());
    }

    /** Keeps a picture of the page beside the build's output, for a person to look at. */
    private static void screenshot(ChromeDriver browser, String name) throws Exception {
        Files.copy(browser.getScreenshotAs(OutputType.FILE).toPath(), Path.of("target", name),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
}
