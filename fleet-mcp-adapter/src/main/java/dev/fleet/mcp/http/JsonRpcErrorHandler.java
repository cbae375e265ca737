package dev.fleet.mcp.http;

import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The container's own error answers (a malformed request line, headers too large, anything that
 * escapes the servlet) as JSON-RPC errors: Jetty's default page is HTML that names Jetty and its
 * version, and can show a stack trace.
 */
final class JsonRpcErrorHandler extends ErrorHandler {

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        Object attribute = request.getAttribute(ERROR_STATUS);
        int status = attribute instanceof Integer code ? code : response.getStatus();
        if (status < 400) {
            status = 500;
        }
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.write(true, ByteBuffer.wrap(JsonRpcHttpError.forStatus(status).body(null)), callback);
        return true;
    }

    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
        fields.put(HttpHeader.CONTENT_TYPE, "application/json");
        return ByteBuffer.wrap(JsonRpcHttpError.forStatus(status).body(null));
    }
}
