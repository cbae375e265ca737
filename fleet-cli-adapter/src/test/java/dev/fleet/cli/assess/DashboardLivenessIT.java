package dev.fleet.cli.assess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.cli.testing.TestFleets;
import dev.fleet.testing.Patience;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The page says whether it is live, and never keeps saying so of a verdict it no longer hears about: in headless
 * Chromium on a real dashboard (the packaged jar). A page whose stream was refused (every one of the 128 places
 * taken) tries again by itself and goes live once a place is free; a dashboard frozen (SIGSTOP) is shown as silent
 * within three keep-alives (15 s each), its verdict marked as possibly out of date, and live again once it runs.
 */
class DashboardLivenessIT {

    private static final int PLACES = 128;
    private static final Duration KEEP_ALIVE = Duration.ofSeconds(15);

    @Test
    void aPageRefusedAPlaceTriesAgainAndGoesLiveOnceOneIsFree(@TempDir Path dir) throws Exception {
        Path registry = dir.resolve("control_plane.sqlite3");
        Path roster = TestFleets.roster(registry);
        List<Socket> taken = new ArrayList<>();
        ChromeDriver browser = null;
        try (FleetInMotion dashboard = start(dir, registry, roster)) {
            URI page = URI.create(dashboard.lines().get(0));
            for (int i = 0; i < PLACES; i++) {
                taken.add(openStream(page));
            }
            browser = HeadlessChromium.start(dir.resolve("chromium"), Patience.scaled(Duration.ofSeconds(60)));
            browser.get(page.toString());
            waitFor(browser, Duration.ofSeconds(30), "the refused stream shown as not live",
                    d -> "lost".equals(connection(d).getDomAttribute("data-state")));
            assertEquals("reconnecting…", connection(browser).getText());
            assertTrue(browser.getTitle().startsWith("(not live) fleet: gate"), browser.getTitle());
            assertTrue(browser.findElement(By.id("gate-stale")).isDisplayed());

            for (Socket socket : taken) {
                socket.close();
            }
            waitFor(browser, Duration.ofSeconds(30), "live once a place is free",
                    d -> "live".equals(connection(d).getDomAttribute("data-state")));
            assertTrue(browser.getTitle().startsWith("fleet: gate"), browser.getTitle());
            assertTrue(!browser.findElement(By.id("gate-stale")).isDisplayed());
        } finally {
            for (Socket socket : taken) {
                socket.close();
            }
            if (browser != null) {
                browser.quit();
            }
        }
    }

    @Test
    void aFrozenDashboardIsShownSilentAndLiveAgainOnceItRuns(@TempDir Path dir) throws Exception {
        Path registry = dir.resolve("control_plane.sqlite3");
        Path roster = TestFleets.roster(registry);
        ChromeDriver browser = null;
        try (FleetInMotion dashboard = start(dir, registry, roster)) {
            URI page = URI.create(dashboard.lines().get(0));
            browser = HeadlessChromium.start(dir.resolve("chromium"), Patience.scaled(Duration.ofSeconds(60)));
            browser.get(page.toString());
            waitFor(browser, Duration.ofSeconds(30), "live", d -> "live".equals(connection(d).getDomAttribute("data-state")));
            waitFor(browser, Duration.ofSeconds(30), "the latest look's time",
                    d -> d.findElement(By.id("looked")).getText().matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d"));

            signal(dashboard, "STOP");
            try {
                waitFor(browser, KEEP_ALIVE.multipliedBy(3).plusSeconds(20), "silence shown",
                        d -> "lost".equals(connection(d).getDomAttribute("data-state")));
                assertTrue(connection(browser).getText().startsWith("silent since "), connection(browser).getText());
                assertTrue(browser.findElement(By.id("gate-stale")).getText().startsWith("Not live: nothing from the "
                        + "dashboard since "), browser.findElement(By.id("gate-stale")).getText());
                assertTrue(browser.getTitle().startsWith("(not live) "), browser.getTitle());
            } finally {
                signal(dashboard, "CONT");
            }
            waitFor(browser, Duration.ofSeconds(30), "live again once it runs",
                    d -> "live".equals(connection(d).getDomAttribute("data-state")));
            assertTrue(!browser.findElement(By.id("gate-stale")).isDisplayed());
        } finally {
            if (browser != null) {
                browser.quit();
            }
        }
    }

    private static FleetInMotion start(Path dir, Path registry, Path roster) throws Exception {
        FleetInMotion dashboard = FleetInMotion.start(dir, "dashboard", "--registry", registry.toString(), "--roster",
                roster.toString(), "--port", "0", "--interval", "1s");
        dashboard.await(() -> dashboard.stdout().startsWith("http://127.0.0.1:"), "the dashboard says where it is");
        return dashboard;
    }

    /** A page's event stream, held open: a socket that asked for /events and read its answer's first bytes. */
    private static Socket openStream(URI page) throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), page.getPort());
        socket.setSoTimeout((int) Patience.scaled(Duration.ofSeconds(30)).toMillis());
        socket.getOutputStream().write(("GET /events HTTP/1.1\r\nHost: 127.0.0.1:" + page.getPort()
                + "\r\nAccept: text/event-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        InputStream in = socket.getInputStream();
        byte[] status = in.readNBytes("HTTP/1.1 200".length());
        assertEquals("HTTP/1.1 200", new String(status, StandardCharsets.US_ASCII), "a place for the stream");
        return socket;
    }

    private static void signal(FleetInMotion dashboard, String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", "-s", signal, Long.toString(dashboard.process().pid())).inheritIO()
                .start();
        assertTrue(kill.waitFor(30, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -s " + signal);
    }

    private static org.openqa.selenium.WebElement connection(WebDriver browser) {
        return browser.findElement(By.id("connection"));
    }

    private static void waitFor(WebDriver browser, Duration base, String what, Function<WebDriver, Boolean> shown) {
        new WebDriverWait(browser, Patience.scaled(base), Duration.ofMillis(100)).withMessage(() -> what + " ("
                + Patience.describe() + "); the page said: " + browser.findElement(By.tagName("body")).getText())
                .until(shown);
    }
}
