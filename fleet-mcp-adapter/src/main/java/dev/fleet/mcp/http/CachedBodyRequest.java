package dev.fleet.mcp.http;

import dev.fleet.mcp.jsonrpc.ByteOrderMark;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.ee11.servlet.ServletContextRequest;
import org.eclipse.jetty.util.thread.Scheduler;

/** The request with its body already read, once and bounded: the SDK reads it again from here. */
final class CachedBodyRequest extends HttpServletRequestWrapper {

    /** The slowest a body may arrive, past the header deadline: a dial-up modem's pace. */
    static final int SLOWEST_BYTES_PER_SECOND = 16 * 1024;

    private final byte[] body;

    private CachedBodyRequest(HttpServletRequest request, byte[] body) {
        super(request);
        this.body = body;
    }

    /**
     * {@code request} with its whole body read, or null when that is longer than {@code maxBytes} (reading
     * stops there). A body not whole within {@code deadline} and a second more for every
     * {@value #SLOWEST_BYTES_PER_SECOND} bytes it declares (the limit, when it declares none) ends its
     * connection, and the read fails: the idle timeout starts again with every byte, so a client
     * trickling one every few seconds held a connection for days, and the connection cap's worth of them
     * shut every other client out. A 1 MiB body may take 74 s.
     */
    static CachedBodyRequest read(HttpServletRequest request, int maxBytes, Duration deadline) throws IOException {
        long declared = request.getContentLengthLong();
        long millis = deadline.toMillis()
                + (declared < 0 ? maxBytes : Math.min(declared, maxBytes)) * 1000L / SLOWEST_BYTES_PER_SECOND;
        ServletContextRequest jetty = ServletContextRequest.getServletContextRequest(request);
        AtomicBoolean whole = new AtomicBoolean();
        Scheduler.Task cut = jetty == null ? null : jetty.getComponents().getScheduler().schedule(() -> {
            if (!whole.get()) {
                jetty.getConnectionMetaData().getConnection().getEndPoint().close();
            }
        }, millis, TimeUnit.MILLISECONDS);
        try (InputStream in = request.getInputStream()) {
            byte[] body = in.readNBytes(maxBytes + 1);
            return body.length > maxBytes ? null : new CachedBodyRequest(request, withoutByteOrderMark(body));
        } finally {
            whole.set(true);
            if (cut != null) {
                cut.cancel();
            }
        }
    }

    /**
     * {@code body} without the UTF-8 byte order mark it may begin with, which JSON may ignore (RFC 8259, §8.1): the
     * reader over stdio ignores it, and the SDK, reading the body as text, refused it.
     */
    private static byte[] withoutByteOrderMark(byte[] body) {
        return ByteOrderMark.leads(body, body.length) ? Arrays.copyOfRange(body, ByteOrderMark.LENGTH, body.length) : body;
    }

    /**
     * Ends the connection of {@code request} without an answer: its body could not be read whole (cut short,
     * stalled past the idle timeout, malformed in its chunks), which is the client's doing, and no status the
     * server could send would reach a client that stopped sending midway.
     */
    static void hangUp(HttpServletRequest request) {
        ServletContextRequest jetty = ServletContextRequest.getServletContextRequest(request);
        if (jetty != null) {
            jetty.getConnectionMetaData().getConnection().getEndPoint().close();
        }
    }

    /** The body's bytes, not a copy: not to be changed. */
    byte[] body() {
        return body;
    }

    /** Whether the whole body is valid UTF-8 (a fresh decoder: requests run on many threads). */
    boolean utf8() {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(body));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    @Override
    public ServletInputStream getInputStream() {
        ByteArrayInputStream in = new ByteArrayInputStream(body);
        return new ServletInputStream() {
            @Override
            public boolean isFinished() {
                return in.available() == 0;
            }

            @Override
            public boolean isReady() {
                return true;
            }

            @Override
            public void setReadListener(ReadListener listener) {
                throw new IllegalStateException("the body is already read");
            }

            @Override
            public int read() {
                return in.read();
            }

            @Override
            public int read(byte[] b, int off, int len) {
                return in.read(b, off, len);
            }
        };
    }

    /**
     * UTF-8, whatever {@code charset} the client's {@code Content-Type} names: JSON is UTF-8 (RFC 8259, §8.1, and
     * a {@code charset} of {@code application/json} "has no effect", §11), the body was checked as UTF-8, and the
     * SDK decodes it with this. It took the client's name: one Java does not know got 500, another text than the
     * one checked reached the SDK.
     */
    @Override
    public String getCharacterEncoding() {
        return StandardCharsets.UTF_8.name();
    }

    @Override
    public BufferedReader getReader() {
        return new BufferedReader(new InputStreamReader(new ByteArrayInputStream(body), StandardCharsets.UTF_8));
    }

    @Override
    public int getContentLength() {
        return body.length;
    }

    @Override
    public long getContentLengthLong() {
        return body.length;
    }
}
