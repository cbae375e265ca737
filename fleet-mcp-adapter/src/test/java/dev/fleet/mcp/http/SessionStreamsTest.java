package dev.fleet.mcp.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A stream suspended as the SDK leaves one whose session it forgot (no timeout, nothing ever written again: the
 * connection held in CLOSE-WAIT for good), in a real Jetty over a real socket: ended once its session is gone, and
 * only then.
 */
class SessionStreamsTest {

    private final Set<String> held = ConcurrentHashMap.newKeySet();
    private final SessionStreams streams = new SessionStreams(held::contains);
    private Server jetty;

    @AfterEach
    void stop() throws Exception {
        jetty.stop();
    }

    @Test
    void aStreamIsEndedOnceItsSessionIsGoneAndNotBefore() throws Exception {
        int port = start();
        held.add("s-1");
        try (Socket client = new Socket(InetAddress.getLoopbackAddress(), port)) {
            client.getOutputStream().write(("GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nMcp-Session-Id: s-1\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            client.setSoTimeout((int) Duration.ofSeconds(60).toMillis());
            InputStream in = client.getInputStream();
            String head = readUntil(in, "\r\n\r\n");
            assertTrue(head.startsWith("HTTP/1.1 200"), head);
            assertEquals(1, streams.open());

            assertEquals(0, streams.endOrphans(), "its session is held: the stream stays");
            held.remove("s-1");
            assertEquals(1, streams.endOrphans(), "its session is gone: the stream ends");

            assertTrue(readUntil(in, "0\r\n\r\n").endsWith("0\r\n\r\n"), "the response ends (its last chunk)");
            assertEquals(0, streams.open());
        }
    }

    /** A Jetty whose servlet suspends every GET and never resumes it, as the SDK leaves an orphaned stream. */
    private int start() throws Exception {
        jetty = new Server();
        ServerConnector connector = new ServerConnector(jetty);
        connector.setHost("127.0.0.1");
        jetty.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler("/");
        ServletHolder holder = new ServletHolder(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
                response.setContentType("text/event-stream");
                request.startAsync().setTimeout(0);
                streams.answered(request, request.getHeader("Mcp-Session-Id"));
                // The head goes out last: once the client has read it, the stream is followed (flushed first, the
                // test raced the servlet and could count no stream yet).
                response.flushBuffer();
            }
        });
        holder.setAsyncSupported(true);
        context.addServlet(holder, "/mcp");
        jetty.setHandler(context);
        jetty.start();
        return connector.getLocalPort();
    }

    private static String readUntil(InputStream in, String end) throws IOException {
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        while (!read.toString(StandardCharsets.US_ASCII).endsWith(end)) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            read.write(b);
        }
        return read.toString(StandardCharsets.US_ASCII);
    }
}
