package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.cli.testing.ServeProcess;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.testing.Patience;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An MCP client that keeps a server's stderr as a pipe and never reads it (the contract: logging never
 * holds up an answer), and one that writes its own text into the server's log lines. Each line below earns one warning, the contract's; 6,000 of them are some
 * 700 KB, far past a pipe's 64 KiB. Before stderr was queued, the warning that filled the pipe blocked
 * its thread for good: a relay's pump stopped relaying, a plain server's stdin stopped being read,
 * and the next answer never came. Now the warnings beyond the queue are dropped, and once stderr is
 * read one line says how many.
 */
class UnreadStderrIT {

    private static final int FLOOD = 6_000;
    /** More than the lines a member logs from stdin's end to its exit. */
    private static final int END_LINES = 10;
    private static final Pattern NOTE = Pattern.compile("fleet: (\\d+) log lines dropped: .*");
    private static final Pattern SERVING = Pattern.compile("serving MCP on (http://\\S+)");

    @TempDir
    Path dir;

    private final List<Process> started = new ArrayList<>();

    /** A member that failed the test is not left behind, nor is its child. */
    @AfterEach
    void endWhatStarted() {
        started.forEach(WrappedMembers::killTree);
    }

    @Test
    void aWrappingMemberRelaysOnThoughItsChildsBrokenLinesFillAStderrNobodyReads() throws Exception {
        Path registry = dir.resolve("registry.sqlite3");
        // The child writes FLOOD lines that are no JSON (each dropped with a warning), then answers pings.
        String child = "for i in $(seq " + FLOOD + "); do echo \"not json $i\"; done; "
                + "exec sed -u 's/\"method\":\"ping\"/\"result\":{}/'";
        Process member = start(WrappedMembers.wrapping(registry, "prgs-author", List.of("bash", "-c", child)));
        BufferedReader stdout = reader(member.getInputStream());
        send(member, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n");

        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", answer(stdout), "the ping is answered");
        assertWarningsWrittenOrCounted(member, "is not one JSON-RPC message");
    }

    @Test
    void aPlainServerReadsOnThoughTheClientsStrayResponsesFillAStderrNobodyReads() throws Exception {
        Path registry = dir.resolve("registry.sqlite3");
        Process member = start(ServeProcess.serveCommand(registry, "prgs-author"));
        BufferedReader stdout = reader(member.getInputStream());
        StringBuilder stray = new StringBuilder();
        for (int i = 0; i < FLOOD; i++) { // a response to no request of the server's: ignored, with a warning
            stray.append("{\"jsonrpc\":\"2.0\",\"id\":\"stray-").append(i).append("\",\"result\":{}}\n");
        }
        send(member, stray + "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n");

        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", answer(stdout), "the ping is answered");
        assertWarningsWrittenOrCounted(member, "response ignored");
    }

    /**
     * Over HTTP nobody is owed stderr, but whoever started the server may keep it as a pipe and stop reading (a
     * paused terminal, a supervisor gone): the SDK logs every stray response, with its id, and the request
     * that filled the pipe blocked its thread, then the next, and SIGTERM's own log line kept the server up.
     */
    @Test
    void anHttpServerAnswersOnAndStopsThoughStrayResponsesFillAStderrNobodyReads() throws Exception {
        HttpServer served = serveHttp();
        Process server = served.server();

        String id = "stray-" + "x".repeat(3_000);
        for (int i = 0; i < 300; i++) { // some 900 KB of log lines: a pipe holds 64 KiB
            served.post("{\"jsonrpc\":\"2.0\",\"id\":\"" + id + i + "\",\"result\":{}}");
        }
        HttpResponse<String> ping = served.post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");

        assertEquals(200, ping.statusCode(), ping.body());
        server.toHandle().destroy();
        assertTrue(server.waitFor(Patience.scaled(Duration.ofSeconds(2)).toMillis(), TimeUnit.MILLISECONDS),
                "SIGTERM ends it within 2 s though nobody reads its stderr");
    }

    /**
     * The SDK logs a client's text (a stray response's id) in its lines, which an operator reads in a terminal
     * or a log file: a newline in it forged a whole line of the server's own, and an escape sequence reached the
     * terminal. Each line printed stays one line, its controls shown as {@code \x0a} and {@code \x1b}.
     */
    @Test
    void aClientsTextInALogLineForgesNoOtherLineAndReachesNoTerminal() throws Exception {
        HttpServer served = serveHttp();
        Process server = served.server();
        CompletableFuture<List<String>> stderr = CompletableFuture.supplyAsync(() -> lines(server));

        served.post("{\"jsonrpc\":\"2.0\",\"id\":\"x\\nFORGED ERROR lifecycle - registry deleted"
                + "\\u001b[31m\",\"result\":{}}");
        assertEquals(200, served.post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}")
                .statusCode());
        server.toHandle().destroy();
        assertTrue(server.waitFor(patience().toSeconds(), TimeUnit.SECONDS), "SIGTERM ends it");

        List<String> lines = stderr.get(patience().toSeconds(), TimeUnit.SECONDS);
        assertTrue(lines.stream().anyMatch(line -> line.contains("x\\x0aFORGED ERROR")), () -> "the id, on its line: "
                + lines);
        assertTrue(lines.stream().noneMatch(line -> line.startsWith("FORGED")), () -> "no forged line: " + lines);
        assertTrue(lines.stream().noneMatch(line -> line.indexOf('\u001b') >= 0), () -> "no escape: " + lines);
    }

    /** A server over HTTP, where it serves, and a 2025-era session open on it. */
    private record HttpServer(Process server, URI endpoint, HttpClient http, String session) {
        HttpResponse<String> post(String body) throws Exception {
            return UnreadStderrIT.post(http, endpoint, session, body);
        }
    }

    /** {@code fleet serve --transport http} on a port of its own, its stderr a pipe nobody reads. */
    private HttpServer serveHttp() throws Exception {
        List<String> command = new ArrayList<>(ServeProcess.serveCommand(dir.resolve("registry.sqlite3"),
                "prgs-author"));
        command.addAll(List.of("--transport", "http", "--port", "0"));
        Process server = start(command);
        URI endpoint = URI.create(CompletableFuture.supplyAsync(() -> servingAt(server))
                .get(patience().toSeconds(), TimeUnit.SECONDS));
        HttpClient http = HttpClient.newHttpClient();
        return new HttpServer(server, endpoint, http, initialize(http, endpoint));
    }

    /** A 2025-era session opened over HTTP: its id. */
    private static String initialize(HttpClient http, URI endpoint) throws Exception {
        HttpResponse<String> initialized = post(http, endpoint, null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":"
                + "\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":"
                + "{\"name\":\"unread\",\"version\":\"1\"}}}");
        return initialized.headers().firstValue("Mcp-Session-Id").orElseThrow(
                () -> new AssertionError(initialized.statusCode() + " " + initialized.body()));
    }

    /** The endpoint the server's stderr names; nothing more of stderr is read. */
    private static String servingAt(Process server) {
        BufferedReader stderr = reader(server.getErrorStream());
        try {
            for (String line = stderr.readLine(); line != null; line = stderr.readLine()) {
                Matcher serving = SERVING.matcher(line);
                if (serving.find()) {
                    return serving.group(1);
                }
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        throw new AssertionError("the server ended before it said where it serves");
    }

    /** One POST, answered within the host's patience: never a hang. */
    private static HttpResponse<String> post(HttpClient http, URI endpoint, String session, String body)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint).timeout(patience())
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            request.header("Mcp-Session-Id", session);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The client reads stderr at last and leaves: every warning was written or counted, and the member exits 0. */
    private static void assertWarningsWrittenOrCounted(Process member, String warning) throws Exception {
        CompletableFuture<List<String>> stderr = CompletableFuture.supplyAsync(() -> lines(member));
        member.getOutputStream().close();
        assertTrue(member.waitFor(patience().toSeconds(), TimeUnit.SECONDS), "the member exits at EOF");
        assertEquals(0, member.exitValue());
        List<String> lines = stderr.get(patience().toSeconds(), TimeUnit.SECONDS);
        long written = lines.stream().filter(line -> line.contains(warning)).count();
        long dropped = 0;
        for (String line : lines) {
            Matcher note = NOTE.matcher(line);
            dropped += note.matches() ? Long.parseLong(note.group(1)) : 0;
        }
        assertTrue(dropped > 0, "a pipe of 64 KiB and a queue of 256 KiB cannot hold 700 KB: " + written);
        // The lines the member logs as it ends (stdin closed, the teardown, the row stopped) may still meet
        // a full queue, the reader having only just begun: those are dropped and counted with the warnings.
        assertTrue(written + dropped >= FLOOD, "each warning written or counted: " + written + " + " + dropped);
        assertTrue(written + dropped <= FLOOD + END_LINES, "no more counted than the warnings and the member's "
                + "own end: " + written + " + " + dropped);
    }

    private Process start(List<String> command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command); // stderr stays a pipe, never read until the end
        TestFleets.isolate(builder.environment());
        Process member = builder.start();
        started.add(member);
        return member;
    }

    /** Writes {@code lines} to the member's stdin, failing once the host's patience is spent: never a hang. */
    private static void send(Process member, String lines) throws Exception {
        CompletableFuture.runAsync(() -> {
            try {
                OutputStream stdin = member.getOutputStream();
                stdin.write(lines.getBytes(StandardCharsets.UTF_8));
                stdin.flush();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }).get(patience().toSeconds(), TimeUnit.SECONDS); // a server blocked on stderr stopped reading stdin
    }

    /** The next line on stdout, or a failure once the host's patience is spent: never a hang. */
    private static String answer(BufferedReader stdout) throws Exception {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return stdout.readLine();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }).get(patience().toSeconds(), TimeUnit.SECONDS);
    }

    private static List<String> lines(Process member) {
        List<String> lines = new ArrayList<>();
        try (BufferedReader stderr = reader(member.getErrorStream())) {
            for (String line = stderr.readLine(); line != null; line = stderr.readLine()) {
                lines.add(line);
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return lines;
    }

    private static BufferedReader reader(java.io.InputStream in) {
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    }

    private static Duration patience() {
        return Patience.scaled(Duration.ofSeconds(60));
    }
}
