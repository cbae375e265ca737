package dev.fleet.cli.assess;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.testing.Patience;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fleet dashboard} as an operator runs it: one line and exit 2 for what it cannot do, loopback
 * by default, nothing written to the registry however the page is used, 143 on SIGTERM.
 */
class DashboardVerbIT {

    @TempDir
    Path dir;

    private static void assertOneLineUsageError(FleetJar.Run run, String starts) {
        assertEquals(2, run.exitCode(), run.stderr());
        assertEquals("", run.stdout());
        assertEquals(1, run.stderrLines().size(), run.stderr());
        assertTrue(run.stderr().startsWith(starts), run.stderr());
    }

    @Test
    void whatItCannotServeIsOneLineAndExitTwo() throws Exception {
        assertOneLineUsageError(FleetJar.run("dashboard", "--port", "70000"), "fleet: --port must be 0-65535");
        assertOneLineUsageError(FleetJar.run("dashboard", "--interval", "5"), "fleet: ");
        assertOneLineUsageError(FleetJar.run("dashboard", "--host", "no-such-host.invalid"),
                "fleet: cannot serve the dashboard on no-such-host.invalid: unknown host");
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            FleetJar.Run second = FleetJar.run("dashboard", "--port", Integer.toString(port));
            assertOneLineUsageError(second, "fleet: cannot serve the dashboard on 127.0.0.1:" + port + ": ");
            assertEquals("fleet: cannot serve the dashboard on 127.0.0.1:" + port + ": port " + port + " is in use "
                    + "(another dashboard?); pick another with --port, or --port 0 for any free one\n", second.stderr());
        }
    }

    /** Its address is its answer on stdout: one it cannot write ends it, one line and exit 74, as any verb's. */
    @Test
    void anAddressItCannotWriteEndsItWithExit74() throws Exception {
        Path registry = dir.resolve("control_plane.sqlite3");
        assertEquals(0, FleetJar.run(Map.of(), "registry", "migrate", "--registry", registry.toString()).exitCode());
        Path stderr = dir.resolve("stderr.txt");
        Process dashboard = new ProcessBuilder(List.of(FleetJar.javaBinary(), "-jar", FleetJar.JAR.toString(),
                "dashboard", "--registry", registry.toString(), "--roster", TestFleets.roster(registry).toString(),
                "--port", "0")).redirectOutput(new java.io.File("/dev/full")).redirectError(stderr.toFile()).start();
        try {
            assertTrue(dashboard.waitFor(Patience.scaled(Duration.ofSeconds(20)).toMillis(), TimeUnit.MILLISECONDS),
                    "it kept serving a page nobody was told of");
            String said = Files.readString(stderr);
            assertEquals(74, dashboard.exitValue(), said);
            assertEquals(List.of("fleet: could not write the answer to standard output: No space left on device"),
                    said.lines().filter(line -> !line.startsWith("fleet: dashboard of ")).toList(), said);
        } finally {
            dashboard.destroyForcibly();
        }
    }

    @Test
    void itServesOnLoopbackWritesNothingAndEndsOnSigterm() throws Exception {
        Path registry = dir.resolve("control_plane.sqlite3");
        FleetJar.Run migrate = FleetJar.run(Map.of(), "registry", "migrate", "--registry", registry.toString());
        assertEquals(0, migrate.exitCode(), migrate.stderr());
        byte[] before = Files.readAllBytes(registry);
        List<Path> filesBefore = listing();
        try (FleetInMotion dashboard = FleetInMotion.start(dir, "dashboard", "--registry", registry.toString(),
                "--roster", TestFleets.roster(registry).toString(), "--port", "0", "--interval", "100ms")) {
            dashboard.await(() -> dashboard.stdout().startsWith("http://127.0.0.1:"), "the page's address on stdout");
            URI page = URI.create(dashboard.lines().get(0));
            assertTrue(dashboard.stderr().contains("fleet: dashboard of registry file " + registry), dashboard.stderr());
            assertFalse(dashboard.stderr().contains("warning"), dashboard.stderr());
            HttpClient http = HttpClient.newHttpClient();
            for (String path : List.of("/", "/verdict", "/metrics", "/dashboard.js")) {
                assertEquals(200, http.send(HttpRequest.newBuilder(page.resolve(path)).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode(), path);
            }
            // The page arrives with the verdict drawn in it: a screenshot needs no script to have run.
            String served = http.send(HttpRequest.newBuilder(page).build(), HttpResponse.BodyHandlers.ofString()).body();
            assertTrue(served.contains("<div id=\"gate-title\" class=\"gate-title\">GATE NOT SATISFIED</div>"), served);
            assertTrue(served.contains("blocked by missing_member"), served);
            assertTrue(served.contains("<code id=\"digest\">sha256:"), served);
            try (InputStream events = http.send(HttpRequest.newBuilder(page.resolve("/events")).build(),
                    HttpResponse.BodyHandlers.ofInputStream()).body()) {
                assertTrue(new String(events.readNBytes(40)).startsWith("event: verdict\nid: sha256:"));
                Thread.sleep(1_000); // ten assessments with a page open
            }
            assertEquals(143, dashboard.signal("TERM"), dashboard.stderr());
        }
        // The contract's promise: the main file's bytes never change because of an assessment. SQLite
        // gives a reader of a WAL file its -shm and -wal, as for assess; a reader writes no frame to the latter.
        assertArrayEquals(before, Files.readAllBytes(registry), "the registry's bytes changed");
        Path wal = registry.resolveSibling(registry.getFileName() + "-wal");
        assertTrue(!Files.exists(wal) || Files.size(wal) == 0, "a frame was written to the WAL");
        assertTrue(listing().stream().allMatch(file -> filesBefore.contains(file) || file.equals(wal)
                || file.getFileName().toString().endsWith("-shm")), "a journal appeared beside the registry: "
                + listing());
    }

    /**
     * A client's malformed request is answered 400 and leaves the operator's stderr alone: Jetty logged a second
     * {@code Host}, or a {@code Host} that is no authority, at WARN with the client's bytes as they came, so any
     * local process wrote a CSI ({@code U+009B}) to the operator's terminal, and some 6 MB of log a second.
     */
    @Test
    void aClientsMalformedRequestsWriteNothingToItsStderr() throws Exception {
        Path registry = dir.resolve("control_plane.sqlite3");
        assertEquals(0, FleetJar.run(Map.of(), "registry", "migrate", "--registry", registry.toString()).exitCode());
        try (FleetInMotion dashboard = FleetInMotion.start(dir, "dashboard", "--registry", registry.toString(),
                "--roster", TestFleets.roster(registry).toString(), "--port", "0")) {
            dashboard.await(() -> dashboard.stdout().startsWith("http://127.0.0.1:"), "the page's address on stdout");
            URI page = URI.create(dashboard.lines().get(0));
            String own = "127.0.0.1:" + page.getPort();
            for (int i = 0; i < 50; i++) {
                for (String hosts : List.of("Host: " + own + "\r\nHost: evil\u009b2J:" + page.getPort(),
                        "Host: \u009b2J" + "A".repeat(4000))) {
                    String answer = raw(page.getPort(), "GET /verdict HTTP/1.1\r\n" + hosts
                            + "\r\nConnection: close\r\n\r\n");
                    assertTrue(answer.startsWith("HTTP/1.1 400"), answer);
                }
            }
            assertEquals(200, HttpClient.newHttpClient().send(HttpRequest.newBuilder(page.resolve("/verdict")).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode(), "it serves on");
            List<String> noise = dashboard.stderr().lines().filter(line -> !line.startsWith("fleet: dashboard of "))
                    .toList();
            assertTrue(noise.isEmpty(), "a client wrote " + noise.size() + " lines to the operator's stderr, the first: "
                    + noise.stream().findFirst().map(line -> line.substring(0, Math.min(200, line.length()))));
            assertEquals(143, dashboard.signal("TERM"), dashboard.stderr());
        }
    }

    /** Sends {@code request} as it is, byte for byte (ISO-8859-1), and reads the whole answer. */
    private static String raw(int port, String request) throws Exception {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout((int) Patience.scaled(Duration.ofSeconds(30)).toMillis());
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private List<Path> listing() throws Exception {
        try (var files = Files.list(dir)) {
            return files.filter(file -> file.getFileName().toString().startsWith("control_plane")).sorted().toList();
        }
    }
}
