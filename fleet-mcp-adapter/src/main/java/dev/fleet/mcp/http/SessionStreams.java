package dev.fleet.mcp.http;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The GET streams of the 2025 era's sessions, each ended once the SDK no longer holds its session. The SDK
 * holds a stream open with no timeout, and a DELETE (or an idle expiry) that races the stream's own end forgets
 * the session but leaves its stream suspended: nothing writes to it again, so no ping finds it dead, and its
 * connection holds a place of the cap for good (an audit filled all 64 in 8 s of ordinary requests; the SDK's
 * issue 1021). Ending the stream lets the connection go.
 */
final class SessionStreams {

    private static final Logger LOG = LoggerFactory.getLogger(SessionStreams.class);

    private final Predicate<String> held;
    private final Map<AsyncContext, String> open = new ConcurrentHashMap<>();

    /** @param held whether the SDK still holds the session of an id */
    SessionStreams(Predicate<String> held) {
        this.held = Objects.requireNonNull(held, "held");
    }

    /** A request the SDK has answered: when it left a stream open for {@code session}, that stream is followed. */
    void answered(HttpServletRequest request, String session) {
        if (session == null || !request.isAsyncStarted()) {
            return;
        }
        AsyncContext stream = request.getAsyncContext();
        open.put(stream, session);
        stream.addListener(new AsyncListener() {
            @Override
            public void onComplete(AsyncEvent event) {
                open.remove(stream);
            }

            @Override
            public void onTimeout(AsyncEvent event) {
                open.remove(stream);
            }

            @Override
            public void onError(AsyncEvent event) {
                open.remove(stream);
            }

            @Override
            public void onStartAsync(AsyncEvent event) {
                // the same stream, suspended again: still followed
            }
        });
    }

    /** Ends every stream whose session the SDK no longer holds; returns how many. */
    int endOrphans() {
        int ended = 0;
        for (Map.Entry<AsyncContext, String> stream : open.entrySet()) {
            if (!held.test(stream.getValue()) && open.remove(stream.getKey()) != null) {
                ended++;
                try {
                    stream.getKey().complete();
                } catch (IllegalStateException alreadyOver) {
                    // completed meanwhile by the SDK or the container
                }
            }
        }
        if (ended > 0) {
            LOG.debug("ended {} stream(s) of sessions that are gone", ended);
        }
        return ended;
    }

    /** How many streams are followed (for tests). */
    int open() {
        return open.size();
    }
}
