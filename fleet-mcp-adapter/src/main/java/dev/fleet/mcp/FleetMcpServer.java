package dev.fleet.mcp;

import dev.fleet.domain.Transport;
import dev.fleet.domain.port.in.AssessFleetInventoryUseCase;
import dev.fleet.domain.port.in.OwnRegistrationUseCase;
import dev.fleet.domain.port.in.ServerLifecycleUseCase;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fleet's MCP server on the official MCP Java SDK, whatever the transport: the two read-only
 * tools, the subscribable verdict resource ({@link VerdictFeed}), and this server's own
 * registration. It drives three in-ports: the assessment, the server's own lifecycle in the registry
 * (start, stop) and that registration as the tools read it (identity, state, the wait for the first
 * attempt); the CLI (the composition root) builds the service behind the last two, with its scheduler
 * and log, for the transport it serves. This adapter never touches the registry's write port itself. A transport serves it: {@code dev.fleet.mcp.stdio.StdioServer} or
 * {@code dev.fleet.mcp.http.StreamableHttpEndpoint}.
 */
public final class FleetMcpServer {

    private static final Logger LOG = LoggerFactory.getLogger(FleetMcpServer.class);
    private static final String NAME = "fleet";
    private static final Duration CLOSE_SESSION_TIMEOUT = Duration.ofMillis(300);
    private static final String INSTRUCTIONS = "Fleet inventory for this repository's MCP servers. Before a "
            + "fleet-wide mutation, call " + AssessFleetInventoryTool.NAME + " with no arguments and proceed only "
            + "when mutation_gate_satisfied is true; " + RuntimeContextTool.NAME + " describes this server itself.";

    private final AssessFleetInventoryUseCase assess;
    private final ServerLifecycleUseCase lifecycle;
    private final OwnRegistrationUseCase registration;
    private final Duration heartbeatPeriod;
    private final VerdictFeed feed;
    private final McpJsonMapper mapper;

    /**
     * @param assess the assessment, built with {@code answered_by} = this server
     * @param lifecycle this server's registration, started and stopped by the transport
     * @param registration the same registration as the tools read it, its identity naming the transport it will serve
     * @param heartbeatPeriod how often to heartbeat once registered; positive
     */
    public FleetMcpServer(AssessFleetInventoryUseCase assess, ServerLifecycleUseCase lifecycle,
            OwnRegistrationUseCase registration, Duration heartbeatPeriod) {
        this.assess = Objects.requireNonNull(assess, "assess");
        this.lifecycle = Objects.requireNonNull(lifecycle, "lifecycle");
        this.registration = Objects.requireNonNull(registration, "registration");
        this.heartbeatPeriod = Objects.requireNonNull(heartbeatPeriod, "heartbeatPeriod");
        this.feed = new VerdictFeed(assess,
                () -> registration.awaitRegistrationAttempt(OwnRegistrationUseCase.REGISTRATION_WAIT));
        this.mapper = McpJson.mapper(feed::subscribing);
    }

    /**
     * The SDK server with both tools and the verdict resource, over {@code specification}'s
     * transport, whose provider went through {@link #feed()} first.
     */
    public McpSyncServer build(McpServer.SyncSpecification<?> specification) {
        feed.addTo(specification);
        return feed.attach(specification
                .jsonMapper(mapper)
                .serverInfo(NAME, version())
                .instructions(INSTRUCTIONS)
                .jsonSchemaValidator(McpJson.validator())
                .capabilities(VerdictFeed.capabilities())
                // The tools refuse arguments themselves, with a message that says why ("accepts no
                // evidence"); the SDK's generic schema check would answer first and say less.
                .validateToolInputs(false)
                .tools(AssessFleetInventoryTool.of(assess,
                                () -> registration.awaitRegistrationAttempt(OwnRegistrationUseCase.REGISTRATION_WAIT))
                                .specification(),
                        RuntimeContextTool.of(registration, OwnRegistrationUseCase.REGISTRATION_WAIT).specification())
                .build());
    }

    /** The fleet's own answers, for a member that relays to a server of its own (no SDK session there). */
    public FleetAnswers answers() {
        Runnable awaitOwnRegistration =
                () -> registration.awaitRegistrationAttempt(OwnRegistrationUseCase.REGISTRATION_WAIT);
        return new FleetAnswers(assess, awaitOwnRegistration, List.of(
                AssessFleetInventoryTool.of(assess, awaitOwnRegistration),
                RuntimeContextTool.of(registration, OwnRegistrationUseCase.REGISTRATION_WAIT)), mapper);
    }

    /** The verdict resource and its subscriptions, for a transport to wrap its provider with. */
    public VerdictFeed feed() {
        return feed;
    }

    /** The name this server gives itself in either era ({@code serverInfo}). */
    public String serverName() {
        return NAME;
    }

    /** The version it gives with that name: the jar's, or {@code dev}. */
    public String serverVersion() {
        return version();
    }

    /** What this server tells a client about using it, in either era. */
    public String instructions() {
        return INSTRUCTIONS;
    }

    /** The JSON mapper the tools answer with, for a transport to read requests as the SDK will. */
    public McpJsonMapper mapper() {
        return mapper;
    }

    /** This server's own registration as the tools read it. */
    public OwnRegistrationUseCase registration() {
        return registration;
    }

    /** The identity the lifecycle registers must name the transport actually served. */
    public void requireTransport(Transport served) {
        Transport registered = registration.identity().transport();
        if (registered != served) {
            throw new IllegalStateException("this server registers as " + registered.code() + " but would serve "
                    + served.code());
        }
    }

    /** Registers this server (no endpoint: stdio) and starts its heartbeat. */
    public void register() {
        lifecycle.start(heartbeatPeriod);
    }

    /** Registers this server with the endpoint a client reaches it at, and starts its heartbeat. */
    public void register(String endpoint) {
        lifecycle.start(heartbeatPeriod, endpoint);
    }

    /**
     * Marks this server's row stopped, within {@link ServerLifecycleUseCase#STOP_DEADLINE} whatever
     * the registry does; waits for a registration in progress first.
     */
    public void markStopped() {
        lifecycle.stop();
    }

    /** Closes the MCP sessions, waiting briefly: shutdown must stay within the 2 s a server has to exit. */
    public static void closeQuietly(McpSyncServer server) {
        try {
            server.getAsyncServer().closeGracefully().block(CLOSE_SESSION_TIMEOUT);
        } catch (RuntimeException e) {
            LOG.debug("closing the MCP server: {}", e.toString());
        }
    }

    private static String version() {
        String version = FleetMcpServer.class.getPackage().getImplementationVersion();
        return version == null ? "dev" : version;
    }
}
