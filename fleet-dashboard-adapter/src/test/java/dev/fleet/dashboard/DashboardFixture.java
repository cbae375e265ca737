package dev.fleet.dashboard;

import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Scenario;
import dev.fleet.domain.Timestamps;
import dev.fleet.domain.verdict.Verdict;
import dev.fleet.metrics.BuildInfo;
import dev.fleet.metrics.MetricsScrape;
import dev.fleet.testing.Patience;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;

/**
 * A real dashboard on a free loopback port, over real sockets, answering from a fleet the test sets
 * ({@link #fleet}): the assessment port is the domain's, so a test may stand in for it.
 */
abstract class DashboardFixture {

    static final Duration INTERVAL = Duration.ofMillis(100);

    final AtomicReference<Verdict> fleet = new AtomicReference<>(verdict(0, false));
    final HttpClient http = HttpClient.newHttpClient();
    RunningDashboard running;

    @AfterEach
    void stop() {
        if (running != null) {
            running.close();
        }
    }

    RunningDashboard start(Duration keepAlive) {
        running = Dashboard.start(fleet::get, metrics(), Roster.defaultRoster(), "127.0.0.1", 0, INTERVAL,
                keepAlive);
        return running;
    }

    MetricsScrape metrics() {
        return new MetricsScrape(fleet::get, Roster.defaultRoster(), new BuildInfo("0.0.0-test", "test"));
    }

    /**
     * The five default members, every heartbeat {@code heartbeatSeconds} after they registered; with a
     * second author when {@code duplicate}.
     */
    static Verdict verdict(long heartbeatSeconds, boolean duplicate) {
        Scenario scenario = Scenario.empty();
        long pid = 4100;
        for (RosterMember member : scenario.roster.members()) {
            scenario.server(RowBuilder.row(member, pid++).with(row -> row.lastHeartbeatAt = Timestamps.format(
                    RowBuilder.REGISTERED.plusSeconds(heartbeatSeconds))));
        }
        if (duplicate) {
            scenario.server(RowBuilder.row(Scenario.member("author"), 4200));
        }
        return scenario.classify();
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri(path)).timeout(Patience.scaled(Duration.ofSeconds(30))).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + running.port() + path);
    }

    /** Sends {@code request} as it is (a raw socket, so anything can be sent) and reads the answer's first line. */
    String raw(String request) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), running.port())) {
            socket.setSoTimeout((int) Patience.scaled(Duration.ofSeconds(30)).toMillis());
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** An open page's event stream: a socket that asked for {@code /events}, read line by line. */
    final class EventStream implements AutoCloseable {
        final Socket socket;
        final BufferedReader in;

        EventStream() throws IOException {
            socket = new Socket(InetAddress.getLoopbackAddress(), running.port());
            socket.setSoTimeout((int) Patience.scaled(Duration.ofSeconds(30)).toMillis());
            socket.getOutputStream().write(("GET /events HTTP/1.1\r\nHost: 127.0.0.1:" + running.port()
                    + "\r\nAccept: text/event-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        }

        /** The id (the digest) of the next verdict event, skipping headers and alive events. */
        String nextDigest() throws IOException {
            next("event: verdict");
            return next("id: ");
        }

        /** The data line of the next verdict event. */
        String nextData() throws IOException {
            next("event: verdict");
            return next("data: ");
        }

        /** The data line of the next alive event. */
        String nextAlive() throws IOException {
            next("event: alive");
            return next("data: ");
        }

        /** What follows {@code field} on the next line that starts with it. */
        private String next(String field) throws IOException {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.startsWith(field)) {
                    return line.substring(field.length());
                }
            }
            throw new IOException("the stream ended");
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
