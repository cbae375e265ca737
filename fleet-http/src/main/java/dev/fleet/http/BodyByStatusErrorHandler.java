package dev.fleet.http;

import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.function.IntFunction;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The container's own error answers (a malformed request line, headers too large, anything that
 * escapes a servlet) as a body chosen by status alone: Jetty's default page is HTML that names Jetty
 * and its version, and can show a stack trace. Each surface says what its body is (JSON-RPC for MCP,
 * one line of text for the dashboard).
 */
public final class BodyByStatusErrorHandler extends ErrorHandler {

    private final String contentType;
    private final IntFunction<byte[]> body;

    /** @param body the whole body for an HTTP status (400 and above) */
    public BodyByStatusErrorHandler(String contentType, IntFunction<byte[]> body) {
        this.contentType = Objects.requireNonNull(contentType, "contentType");
        this.body = Objects.requireNonNull(body, "body");
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        Object attribute = request.getAttribute(ERROR_STATUS);
        int status = attribute instanceof Integer code ? code : response.getStatus();
        if (status < 400) {
            status = 500;
        }
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
        response.write(true, ByteBuffer.wrap(body.apply(status)), callback);
        return true;
    }

    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
        fields.put(HttpHeader.CONTENT_TYPE, contentType);
        return ByteBuffer.wrap(body.apply(status));
    }
}
