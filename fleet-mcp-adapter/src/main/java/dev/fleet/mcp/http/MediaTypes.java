package dev.fleet.mcp.http;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * A request's media types: the {@code Content-Type} of a POST, and the types its {@code Accept} lists, read as
 * HTTP defines it (RFC 9110, 12.5.1): every line of the header (a client may send one line per type), each media
 * range by its type and subtype, case aside, and one weighted {@code q=0} left out, as its client refuses it. A
 * substring of the first line was read before: two lines were refused, and {@code text/event-streamx} was taken
 * for an event stream.
 */
final class MediaTypes {

    private static final String JSON = "application/json";
    private static final String STREAM = "text/event-stream";

    private MediaTypes() {
    }

    /**
     * The refusal of a POST whose body is not JSON, or of a POST or GET that does not accept what the endpoint
     * answers with (both types for a POST, the stream for a GET); null when none.
     */
    static JsonRpcHttpError refusal(HttpServletRequest request) {
        Set<String> accepted = of(request.getHeaders("Accept"));
        if ("POST".equals(request.getMethod())) {
            String type = contentType(request);
            // The type and subtype, parameters aside: application/jsonx is another type, as text/event-streamx is.
            if (type == null || !JSON.equals(type.split(";", 2)[0].strip().toLowerCase(Locale.ROOT))) {
                return JsonRpcHttpError.UNSUPPORTED_MEDIA_TYPE;
            }
            return accepted.contains(JSON) && accepted.contains(STREAM) ? null : JsonRpcHttpError.NOT_ACCEPTABLE;
        }
        return "GET".equals(request.getMethod()) && !accepted.contains(STREAM)
                ? JsonRpcHttpError.NOT_ACCEPTABLE_STREAM : null;
    }

    /**
     * The {@code Content-Type} as sent. Jetty's {@link HttpServletRequest#getContentType()} threw for a
     * {@code charset} Java does not know ({@code application/json; charset=ebcdic}), which a client's request
     * got 500 for; a body is read as UTF-8 whatever it names ({@link CachedBodyRequest#getCharacterEncoding()}).
     * Null when absent or given twice: two lines name no one type (the first alone was read, so {@code
     * application/json} then {@code text/plain} was served), and a proxy in front may have read the other.
     */
    private static String contentType(HttpServletRequest request) {
        Enumeration<String> lines = request.getHeaders("Content-Type");
        String first = lines != null && lines.hasMoreElements() ? lines.nextElement() : null;
        return lines != null && lines.hasMoreElements() ? null : first;
    }

    /** The types {@code lines} accept (lower case, parameters dropped); empty without the header. */
    private static Set<String> of(Enumeration<String> lines) {
        Set<String> accepted = new HashSet<>();
        while (lines != null && lines.hasMoreElements()) {
            for (String range : lines.nextElement().split(",")) {
                String[] parts = range.split(";");
                String type = parts[0].trim().toLowerCase(Locale.ROOT);
                if (!type.isEmpty() && !refused(parts)) {
                    accepted.add(type);
                }
            }
        }
        return accepted;
    }

    /** Whether the range's parameters weigh it {@code q=0}; a weight that does not parse is none. */
    private static boolean refused(String[] parts) {
        for (int i = 1; i < parts.length; i++) {
            String parameter = parts[i].trim().toLowerCase(Locale.ROOT);
            if (parameter.startsWith("q=")) {
                try {
                    return Double.parseDouble(parameter.substring(2).trim()) <= 0;
                } catch (NumberFormatException unweighted) {
                    return false;
                }
            }
        }
        return false;
    }

    /**
     * {@code request} as the SDK reads it once the guard has accepted it: one {@code Accept} line that lists what
     * it requires (both types for a POST, the stream otherwise), since the SDK reads the first line alone, by
     * substring and case, and would refuse a client the guard accepted (two lines, or {@code Application/JSON}).
     */
    static HttpServletRequest asAccepted(HttpServletRequest request) {
        String accept = "POST".equals(request.getMethod()) ? JSON + ", " + STREAM : STREAM;
        return new HttpServletRequestWrapper(request) {
            @Override
            public String getHeader(String name) {
                return "Accept".equalsIgnoreCase(name) ? accept : super.getHeader(name);
            }

            @Override
            public String getContentType() {
                return contentType(request);
            }

            @Override
            public Enumeration<String> getHeaders(String name) {
                return "Accept".equalsIgnoreCase(name) ? Collections.enumeration(Set.of(accept))
                        : super.getHeaders(name);
            }
        };
    }
}
