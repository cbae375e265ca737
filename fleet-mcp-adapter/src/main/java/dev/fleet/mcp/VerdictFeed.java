package dev.fleet.mcp;

import dev.fleet.domain.port.in.AssessFleetInventoryUseCase;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import io.modelcontextprotocol.spec.McpStreamableServerTransportProvider;
import java.util.Objects;

/**
 * The resource {@value VerdictResource#URI} with its subscriptions, as one server wires it: the
 * resource itself, the capability {@code resources: {subscribe: true, listChanged: false}}, the
 * mapper that sees subscriptions, the transport wrapper that counts subscribers, and the watcher.
 * Read-only: it reaches only the assessment.
 */
public final class VerdictFeed {

    private final AssessFleetInventoryUseCase assess;
    private final Runnable awaitOwnRegistration;
    private final SubscriberProbe probe = new SubscriberProbe();
    private final VerdictSubscriptions subscriptions;

    VerdictFeed(AssessFleetInventoryUseCase assess, Runnable awaitOwnRegistration) {
        this.assess = Objects.requireNonNull(assess, "assess");
        this.awaitOwnRegistration = Objects.requireNonNull(awaitOwnRegistration, "awaitOwnRegistration");
        this.subscriptions = new VerdictSubscriptions(() -> assess.assessWithJson().verdict().verdictDigest(),
                probe::subscribers, probe::notifySubscribers, VerdictSubscriptions.PERIOD);
    }

    /** {@code provider}, counting who subscribes through it (stdio). */
    public McpServerTransportProvider wrap(McpServerTransportProvider provider) {
        return probe.wrap(provider);
    }

    /** {@code provider}, counting who subscribes through it (streamable HTTP). */
    public McpStreamableServerTransportProvider wrap(McpStreamableServerTransportProvider provider) {
        return probe.wrap(provider);
    }

    /** Adds the resource, its capability and the subscription-watching mapper to a server being built. */
    void addTo(McpServer.SyncSpecification<?> specification, McpJsonMapper mapper) {
        SyncResourceSpecification resource = VerdictResource.specification(assess, awaitOwnRegistration);
        specification.jsonMapper(new SubscribeWatchingMapper(mapper, subscriptions::wake));
        specification.resources(resource);
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
    }
}
