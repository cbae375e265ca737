package dev.fleet.cli.assess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.cli.testing.ServeProcess;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.testing.Patience;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * What a newcomer sees of {@code fleet dashboard} (the packaged jar) with a member that wraps a server
 * of its own: in headless Chromium with its script running, the wrapped server's pid under the member's
 * (where {@code fleet assess} shows {@code PID(wraps PID)}), its command in the title; with scripts
 * disabled, as a plain {@code chromium --headless --screenshot} may take the page, the verdict drawn
 * all the same.
 */
class DashboardFirstVerdictIT {

    @Test
    void theWrappedServersPidShowsAndTheVerdictNeedsNoScript(@TempDir Path dir) throws Exception {
        Path registry = dir.resolve("control_plane.sqlite3");
        Path roster = TestFleets.roster(registry);
        List<String> command = new ArrayList<>(ServeProcess.serveCommand(registry, "prgs-author"));
        command.addAll(List.of("--", "bash", "-c", "while read -r line; do :; done"));
        ChromeDriver browser = null;
        try (ServeProcess author = ServeProcess.start(command, "prgs-author", Map.of("GITEA_MCP_COHORT_ID", "one"));
                FleetInMotion dashboard = FleetInMotion.start(dir, "dashboard", "--registry", registry.toString(),
                        "--roster", roster.toString(), "--port", "0", "--interval", "1s")) {
            TestFleets.awaitRunningRows(registry, 1);
            dashboard.await(() -> dashboard.stdout().startsWith("http://127.0.0.1:"), "the dashboard says where it is");
            URI page = URI.create(dashboard.lines().get(0));
            browser = HeadlessChromium.start(dir.resolve("chromium"), Patience.scaled(Duration.ofSeconds(60)));

            browser.get(page.toString());
            String card = "#members .card[data-profile='prgs-author'] ";
            new WebDriverWait(browser, Patience.scaled(Duration.ofSeconds(60)), Duration.ofMillis(50))
                    .until(d -> "live".equals(d.findElement(By.id("connection")).getText())
                            && !d.findElements(By.cssSelector(card + "dd[data-field='wraps']")).isEmpty());
            long server = ProcessHandle.of(author.pid()).orElseThrow().children().findFirst().orElseThrow().pid();
            assertEquals(Long.toString(author.pid()), browser.findElement(By.cssSelector(card + "dd[data-field='pid']"))
                    .getText());
            assertEquals(Long.toString(server), browser.findElement(By.cssSelector(card + "dd[data-field='wraps']"))
                    .getText());
            assertEquals("bash -c while read -r line; do :; done", browser.findElement(By.cssSelector(card
                    + "dd[data-field='wraps']")).getDomAttribute("title"), "the wrapped server's command");

            // As a plain screenshot takes it: no script runs, and the page still shows the verdict.
            browser.executeCdpCommand("Emulation.setScriptExecutionDisabled", Map.of("value", true));
            browser.get(page.toString());
            assertEquals("connecting…", browser.findElement(By.id("connection")).getText(), "the script ran");
            assertEquals("GATE NOT SATISFIED", browser.findElement(By.id("gate-title")).getText());
            assertTrue(browser.findElement(By.id("gate-reason")).getText().startsWith("blocked by missing_member"),
                    browser.findElement(By.id("gate-reason")).getText());
            assertEquals(Long.toString(server), browser.findElement(By.cssSelector(card + "dd[data-field='wraps']"))
                    .getText(), "the wrapped server's pid as the script drew it");
            assertEquals(4, browser.findElements(By.cssSelector("#members .card[data-state='missing']")).size());
            assertTrue(browser.findElement(By.id("digest")).getText().startsWith("sha256:"));
            Files.copy(browser.getScreenshotAs(OutputType.FILE).toPath(), Path.of("target", "dashboard-no-script.png"),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } finally {
            if (browser != null) {
                browser.quit();
            }
        }
    }
}
