package dev.fleet.mcp.http;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * The response the SDK's servlet writes to. Whatever error it answers (a bare {@code sendError},
 * which Jetty would render as an HTML page naming itself, or its own error body, which serialises
 * a Java exception with its stack trace), only the status survives: the body is dropped here and
 * {@link JsonRpcHttpGuard} writes a {@link JsonRpcHttpError} for that status instead. What it answers
 * normally it writes through a {@link SurrogateEscapingWriter}, so it stays valid UTF-8.
 */
final class ErrorTranslatingResponse extends HttpServletResponseWrapper {

    private int errorStatus;

    ErrorTranslatingResponse(HttpServletResponse response) {
        super(response);
    }

    /** The error status the SDK chose, or 0 when it answered normally. */
    int errorStatus() {
        return errorStatus;
    }

    @Override
    public void sendError(int status) {
        errorStatus = status;
    }

    @Override
    public void sendError(int status, String message) {
        errorStatus = status;
    }

    @Override
    public void setStatus(int status) {
        if (status >= 400) {
            errorStatus = status;
        } else {
            super.setStatus(status);
        }
    }

    @Override
    public ServletOutputStream getOutputStream() throws IOException {
        return errorStatus != 0 ? DISCARD : super.getOutputStream();
    }

    @Override
    public PrintWriter getWriter() throws IOException {
        return errorStatus != 0 ? new PrintWriter(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8)
                : SurrogateEscapingWriter.of(super.getWriter());
    }

    @Override
    public void setContentType(String type) {
        if (errorStatus == 0) {
            super.setContentType(type);
        }
    }

    private static final ServletOutputStream DISCARD = new ServletOutputStream() {
        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setWriteListener(WriteListener listener) {
            // Nothing is ever written, so nothing waits.
        }

        @Override
        public void write(int b) {
            // Dropped: the guard writes the error body.
        }
    };
}
