package dev.fleet.mcp;

import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import io.modelcontextprotocol.spec.McpStreamableServerTransportProvider;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * How many sessions are subscribed to {@value VerdictResource#URI}, asked of the SDK, which keeps
 * them (per session, dropped when a session unsubscribes or closes) but does not say. Its
 * {@code notifyResourcesUpdated} calls the transport provider once for each subscribed session:
 * the probe sends one marked notification through a provider wrapped here, which counts those calls
 * for the marked notification and sends nothing.
 */
final class SubscriberProbe {

    /** The marked notification, told apart by identity: never sent to a client. */
    private static final McpSchema.ResourcesUpdatedNotification PROBE =
            new McpSchema.ResourcesUpdatedNotification(VerdictResource.URI, Map.of("fleet/probe", true));
    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final Logger LOG = LoggerFactory.getLogger(SubscriberProbe.class);

    private final AtomicInteger counted = new AtomicInteger();
    private volatile McpSyncServer server;

    /** The server to ask, once built. */
    void attach(McpSyncServer built) {
        server = Objects.requireNonNull(built, "built");
    }

    /** Subscribed sessions now; 0 before the server is attached. */
    synchronized int subscribers() {
        McpSyncServer current = server;
        if (current == null) {
            return 0;
        }
        counted.set(0);
        current.getAsyncServer().notifyResourcesUpdated(PROBE).block(WAIT);
        return counted.get();
    }

    /** Sends {@code notifications/resources/updated} for the resource to every subscribed session. */
    void notifySubscribers() {
        McpSyncServer current = server;
        if (current != null) {
            current.notifyResourcesUpdated(new McpSchema.ResourcesUpdatedNotification(VerdictResource.URI));
        }
    }

    /** {@code provider} (stdio), counting the probe's calls. */
    McpServerTransportProvider wrap(McpServerTransportProvider provider) {
        return new ForwardingProvider.OfSessions(provider) {
            @Override
            public Mono<Void> notifyClient(String sessionId, String method, Object params) {
                return counted(params) ? Mono.empty() : super.notifyClient(sessionId, method, params);
            }
        };
    }

    /**
     * {@code provider} (streamable HTTP), counting the probe's calls. A session with no GET stream open cannot be
     * told (MCP sends notifications over one only): that is normal, said in one debug line, where the SDK logged
     * an ERROR with a 25-line stack trace for each such session at each change (an audit's 250 subscribed
     * sessions wrote 2.5 MB of stderr for five changes).
     */
    McpStreamableServerTransportProvider wrap(McpStreamableServerTransportProvider provider) {
        return new ForwardingProvider.OfStreamableSessions(provider) {
            @Override
            public Mono<Void> notifyClient(String sessionId, String method, Object params) {
                return counted(params) ? Mono.empty() : super.notifyClient(sessionId, method, params)
                        .onErrorResume(unsent -> {
                            LOG.debug("{} not sent to session {}: {}", method, sessionId, unsent.toString());
                            return Mono.empty();
                        });
            }
        };
    }

    /** Whether {@code params} is the probe's, counted here and never sent. */
    private boolean counted(Object params) {
        if (params != PROBE) {
            return false;
        }
        counted.incrementAndGet();
        return true;
    }
}
