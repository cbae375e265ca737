package dev.fleet.http;

import java.nio.ByteBuffer;
import java.util.List;
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
    private final List<String> methods;

    /**
     * @param body the whole body for an HTTP status (400 and above)
     * @param methods the methods the surface serves, for {@code Allow}: a request of another that the
     *     container finds no path for ({@code OPTIONS *}, which names none) gets 405, as the surface's
     *     own refusal of that method would, rather than 404
     */
    public BodyByStatusErrorHandler(String contentType, IntFunction<byte[]> body, List<String> methods) {
        this.contentType = Objects.requireNonNull(contentType, "contentType");
        this.body = Objects.requireNonNull(body, "body");
        this.methods = List.copyOf(methods);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        Object attribute = request.getAttribute(ERROR_STATUS);
        int status = attribute instanceof Integer code ? code : response.getStatus();
        if (status < 400) {
            status = 500;
        }
        if (status == 404 && !methods.contains(request.getMethod())) { // a bad request stays 400
            status = 405;
            response.getHeaders().put(HttpHeader.ALLOW, String.join(", ", methods));
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
