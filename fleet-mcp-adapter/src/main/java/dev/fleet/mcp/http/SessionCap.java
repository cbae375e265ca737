package dev.fleet.mcp.http;

import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import java.lang.reflect.Field;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;
import java.util.function.Predicate;

/**
 * How many MCP sessions the HTTP endpoint holds, and whether one more may start
 * ({@link HttpLimits#maxSessions()}).
 *
 * <p>Beyond the cap a new {@code initialize} is refused, rather than the least recently used idle
 * session evicted: an operator expects a session a client holds to stay valid until the client
 * deletes it or leaves it idle past {@link HttpLimits#sessionIdle()}, as documented; eviction would
 * let one client that floods {@code initialize} push every other agent out of its session, while
 * refusal only stops the newcomer, with an answer that says what to do.
 *
 * <p>The count is the SDK's own: SDK 2.2.0's provider keeps its sessions in a private map that it
 * alone adds to (on {@code initialize}) and removes from (on DELETE, on idle expiry, on close), and
 * exposes no count. Mirroring that map from outside would drift from it at every idle expiry, which
 * the SDK does silently, so this reads its size. The SDK version is pinned; if a later one renames
 * the map, the endpoint refuses to start (fail closed) and the HTTP tests say so.
 */
final class SessionCap {

    private static final String SESSIONS_FIELD = "sessions";

    private final IntSupplier live;
    private final Predicate<String> held;
    private final int max;
    /** Admitted {@code initialize} calls whose session may not be in the SDK's map yet. */
    private final AtomicInteger starting = new AtomicInteger();

    SessionCap(IntSupplier live, int max) {
        this(live, id -> true, max);
    }

    private SessionCap(IntSupplier live, Predicate<String> held, int max) {
        this.live = Objects.requireNonNull(live, "live");
        this.held = Objects.requireNonNull(held, "held");
        if (max <= 0) {
            throw new IllegalArgumentException("max must be positive, got " + max);
        }
        this.max = max;
    }

    /** The cap over {@code provider}'s sessions. */
    static SessionCap of(HttpServletStreamableServerTransportProvider provider, int max) {
        Map<?, ?> sessions = sessionsOf(provider);
        return new SessionCap(sessions::size, sessions::containsKey, max);
    }

    /** Whether the SDK still holds the session of {@code id} (not deleted, not expired). */
    boolean holds(String id) {
        return held.test(id);
    }

    /**
     * Whether one more session may start; if so, the caller must call {@link #started()} once the
     * {@code initialize} has been answered (or failed). Counting the ones in progress keeps
     * concurrent {@code initialize} calls from all passing at once.
     */
    boolean tryStart() {
        int inProgress = starting.incrementAndGet();
        if (live.getAsInt() + inProgress > max) {
            starting.decrementAndGet();
            return false;
        }
        return true;
    }

    /** The {@code initialize} admitted by {@link #tryStart()} is over: its session, if any, is in the count. */
    void started() {
        starting.decrementAndGet();
    }

    private static Map<?, ?> sessionsOf(HttpServletStreamableServerTransportProvider provider) {
        try {
            Field field = HttpServletStreamableServerTransportProvider.class.getDeclaredField(SESSIONS_FIELD);
            field.setAccessible(true);
            return (Map<?, ?>) Objects.requireNonNull(field.get(provider), SESSIONS_FIELD);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot count the MCP SDK's HTTP sessions (SDK changed?): " + e, e);
        }
    }
}
