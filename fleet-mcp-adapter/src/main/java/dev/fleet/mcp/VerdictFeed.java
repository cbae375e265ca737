package dev.fleet.mcp;

import dev.fleet.domain.port.in.AssessFleetInventoryUseCase;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import io.modelcontextprotocol.spec.McpStreamableServerTransportProvider;
import java.util.Objects;

/**
 * The resource {@value VerdictResource#URI} with its subscriptions, as one server wires it: the
 * resource itself, the capability {@code resources: {subscribe: true, listChanged: false}}, what
 * the server's mapper shows it of subscriptions, the transport wrapper that counts subscribers, and the watcher.
 * Read-only: it reaches only the assessment.
 */
public final class VerdictFeed {

    private final AssessFleetInventoryUseCase assess;
    private final Runnable awaitOwnRegistration;
    private final SubscriberProbe probe = new SubscriberProbe();
    private final VerdictListens listens = new VerdictListens();
    private final VerdictSubscriptions subscriptions;

    VerdictFeed(AssessFleetInventoryUseCase assess, Runnable awaitOwnRegistration) {
        this.assess = Objects.requireNonNull(assess, "assess");
        this.awaitOwnRegistration = Objects.requireNonNull(awaitOwnRegistration, "awaitOwnRegistration");
        // One watcher for both eras: 2025 sessions subscribed through the SDK, 2026-07-28 listens.
        this.subscriptions = new VerdictSubscriptions(() -> assess.assess().verdictDigest(),
                () -> probe.subscribers() + listens.open(), () -> {
                    probe.notifySubscribers();
                    listens.announce();
                }, VerdictSubscriptions.PERIOD);
        listens.onOpen(subscriptions::wake, () -> subscriptions.awaitBaseline(VerdictSubscriptions.BASELINE_WAIT));
    }

    /** The 2026-07-28 era's listens to the resource, which this feed's watcher also serves. */
    public VerdictListens listens() {
        return listens;
    }

    /** {@code provider}, counting who subscribes through it (stdio). */
    public McpServerTransportProvider wrap(McpServerTransportProvider provider) {
        return probe.wrap(provider);
    }

    /** {@code provider}, counting who subscribes through it (streamable HTTP). */
    public McpStreamableServerTransportProvider wrap(McpStreamableServerTransportProvider provider) {
        return probe.wrap(provider);
    }

    /** Adds the resource to a server being built. */
    void addTo(McpServer.SyncSpecification<?> specification) {
        specification.resources(VerdictResource.specification(assess, awaitOwnRegistration));
    }

    /**
     * A client asks to subscribe (the server's mapper calls this as it reads the request): a URI this
     * server does not serve is refused with -32002, resource not found, as {@code resources/read}
     * answers it (the SDK would accept any URI); {@value VerdictResource#URI} wakes the watcher, and is
     * acknowledged once the watcher has its baseline ({@link VerdictSubscriptions#subscribed}).
     */
    void subscribing(McpSchema.SubscribeRequest request) {
        if (!VerdictResource.URI.equals(request.uri())) {
            throw McpError.RESOURCE_NOT_FOUND.apply(String.valueOf(request.uri()));
        }
        subscriptions.subscribed(VerdictSubscriptions.BASELINE_WAIT);
    }

    /** The capabilities of a server with tools and this resource. */
    static McpSchema.ServerCapabilities capabilities() {
        return McpSchema.ServerCapabilities.builder().tools(false).resources(true, false).build();
    }

    /** The built server, which the probe and the notifications go through. */
    McpSyncServer attach(McpSyncServer server) {
        probe.attach(server);
        return server;
    }

    /** Whether a watcher runs now, i.e. some session subscribed and has not left (tests). */
    boolean watching() {
        return subscriptions.running();
    }

    /** Ends the watcher, if one runs (the server is closing). */
    void close() {
        subscriptions.close();
        listens.close();
    }
}
