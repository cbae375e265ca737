package dev.fleet.cli.assess;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's Chromium, headless, driven through Debian's chromedriver over WebDriver: a real browser
 * for the dashboard's page. Nothing is downloaded: both binaries are named, so Selenium's manager
 * never runs. Where they are missing, a run under CI ({@code CI} set; {@code .ci/run} installs them
 * first) or with {@code -Dfleet.browser=required} fails; elsewhere the test is skipped, saying why.
 */
final class HeadlessChromium {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    private HeadlessChromium() {
    }

    /**
     * A fresh browser with a profile of its own in {@code profile}. The flags keep it off this machine's
     * closed network (no background requests, updates or sync) and let it run as root in a container.
     */
    static ChromeDriver start(Path profile, Duration pageLoad) {
        requireInstalled();
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-extensions", "--window-size=1280,1600",
                "--user-data-dir=" + profile.toAbsolutePath());
        options.setPageLoadTimeout(pageLoad);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER.toString())).usingAnyFreePort().build();
        return new ChromeDriver(service, options);
    }

    private static void requireInstalled() {
        if (Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER)) {
            return;
        }
        String missing = "the dashboard's browser test needs " + CHROMIUM + " and " + CHROMEDRIVER
                + ": install Debian's chromium and chromium-driver (apt-get install chromium chromium-driver), "
                + "as .ci/run does";
        if (System.getenv("CI") != null || "required".equals(System.getProperty("fleet.browser"))) {
            fail(missing + " (required under CI and with -Dfleet.browser=required)");
        }
        Assumptions.abort(missing + "; skipped outside CI");
    }
}
