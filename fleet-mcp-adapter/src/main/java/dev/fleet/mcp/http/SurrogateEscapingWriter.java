package dev.fleet.mcp.http;

import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * The writer the SDK's servlets write their answers with, which keeps them valid UTF-8. A request may name
 * a string that is no Unicode text (an id {@code "\\ud800"}: JSON lets an escape spell half a surrogate pair);
 * the SDK echoes it as a Java string, and the container's UTF-8 encoder writes a lone surrogate as the bytes
 * {@code ED A0 80}, which no strict UTF-8 reader accepts. Every byte fleet writes is valid UTF-8, and stdio
 * and the relay echo such a string escaped, so here each lone surrogate is written as its JSON
 * escape again, in upper case as Jackson writes it on stdio. The SDK writes JSON (in plain bodies and
 * event-stream {@code data:} lines), where a character outside ASCII can only stand inside a string, so the
 * escape means exactly what the character did; pairs pass unchanged.
 */
final class SurrogateEscapingWriter extends PrintWriter {

    /** A high surrogate whose low half may begin the next write; {@code 0} when none waits. */
    private char pending;

    private SurrogateEscapingWriter(PrintWriter out) {
        super(out, false); // checkError() asks {@code out}: the SDK learns of a client gone as before
    }

    /** {@code response}, its writer escaping lone surrogates. */
    static HttpServletResponse escaping(HttpServletResponse response) {
        return new HttpServletResponseWrapper(response) {
            @Override
            public PrintWriter getWriter() throws IOException {
                return of(super.getWriter());
            }
        };
    }

    /** {@code out}, escaping lone surrogates. */
    static PrintWriter of(PrintWriter out) {
        return new SurrogateEscapingWriter(out);
    }

    @Override
    public void write(int c) {
        write(String.valueOf((char) c), 0, 1);
    }

    @Override
    public void write(char[] buffer, int offset, int length) {
        write(new String(buffer, offset, length), 0, length);
    }

    @Override
    public void write(String text, int offset, int length) {
        synchronized (lock) {
            if (pending == 0 && noSurrogate(text, offset, offset + length)) {
                super.write(text, offset, length);
                return;
            }
            StringBuilder kept = new StringBuilder(length + 12);
            for (int i = offset; i < offset + length; i++) {
                char c = text.charAt(i);
                if (pending != 0) {
                    if (Character.isLowSurrogate(c)) {
                        kept.append(pending).append(c);
                        pending = 0;
                        continue;
                    }
                    kept.append(escape(pending));
                    pending = 0;
                }
                if (Character.isHighSurrogate(c)) {
                    pending = c;
                } else {
                    kept.append(Character.isLowSurrogate(c) ? escape(c) : String.valueOf(c));
                }
            }
            super.write(kept.toString(), 0, kept.length());
        }
    }

    /** The line's end after what waits: PrintWriter writes it to the writer beneath, past {@link #write}. */
    @Override
    public void println() {
        synchronized (lock) {
            releasePending();
            super.println();
        }
    }

    @Override
    public void flush() {
        releasePending();
        super.flush();
    }

    @Override
    public void close() {
        releasePending();
        super.close();
    }

    /** A high surrogate still waiting when the text is flushed had no low half: it is written escaped. */
    private void releasePending() {
        synchronized (lock) {
            if (pending != 0) {
                String escaped = escape(pending);
                pending = 0;
                super.write(escaped, 0, escaped.length());
            }
        }
    }

    private static boolean noSurrogate(String text, int from, int to) {
        for (int i = from; i < to; i++) {
            if (Character.isSurrogate(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static String escape(char surrogate) {
        return String.format(Locale.ROOT, "\\u%04X", (int) surrogate);
    }
}
