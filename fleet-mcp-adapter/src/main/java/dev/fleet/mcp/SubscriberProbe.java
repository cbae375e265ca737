package dev.fleet.mcp;

import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import io.modelcontextprotocol.spec.McpServerTransportProviderBase;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import io.modelcontextprotocol.spec.McpStreamableServerTransportProvider;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
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

    /** {@code notifyClient}, except that the probe is counted, not sent. */
    private Mono<Void> notifyClient(McpServerTransportProviderBase delegate, String sessionId, String method,
            Object params) {
        if (params == PROBE) {
            counted.incrementAndGet();
            return Mono.empty();
        }
        return delegate.notifyClient(sessionId, method, params);
    }

    /** {@code provider} (stdio), counting the probe's calls. */
    McpServerTransportProvider wrap(McpServerTransportProvider provider) {
        return new McpServerTransportProvider() {
            @Override
            public void setSessionFactory(McpServerSession.Factory sessionFactory) {
                provider.setSessionFactory(sessionFactory);
            }

            @Override
            public Mono<Void> notifyClients(String method, Object params) {
                return provider.notifyClients(method, params);
            }

            @Override
            public Mono<Void> notifyClient(String sessionId, String method, Object params) {
                return SubscriberProbe.this.notifyClient(provider, sessionId, method, params);
            }

            @Override
            public void close() {
                provider.close();
            }

            @Override
            public Mono<Void> closeGracefully() {
                return provider.closeGracefully();
            }

            @Override
            public List<String> protocolVersions() {
                return provider.protocolVersions();
            }
        };
    }

    /** {@code provider} (streamable HTTP), counting the probe's calls. */
    McpStreamableServerTransportProvider wrap(McpStreamableServerTransportProvider provider) {
        return new McpStreamableServerTransportProvider() {
            @Override
            public void setSessionFactory(McpStreamableServerSession.Factory sessionFactory) {
                provider.setSessionFactory(sessionFactory);
            }

            @Override
            public Mono<Void> notifyClients(String method, Object params) {
                return provider.notifyClients(method, params);
            }

            @Override
            public Mono<Void> notifyClient(String sessionId, String method, Object params) {
                return SubscriberProbe.this.notifyClient(provider, sessionId, method, params);
            }

            @Override
            public void close() {
                provider.close();
            }

            @Override
            public Mono<Void> closeGracefully() {
                return provider.closeGracefully();
            }

            @Override
            public List<String> protocolVersions() {
                return provider.protocolVersions();
            }
        };
    }
}
