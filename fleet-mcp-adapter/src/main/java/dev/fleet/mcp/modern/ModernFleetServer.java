package dev.fleet.mcp.modern;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.mcp.FleetAnswers;
import dev.fleet.mcp.FleetMcpServer;
import dev.fleet.mcp.VerdictListens;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import io.modelcontextprotocol.modern.server.McpRequestManager;
import io.modelcontextprotocol.modern.server.McpServer;
import io.modelcontextprotocol.modern.server.RequestStateCodec;
import java.util.List;
import java.util.Objects;

/**
 * The fleet's MCP server in the 2026-07-28 era, on the SDK's stateless server
 * ({@code io.modelcontextprotocol.modern.server.McpServer}): {@code server/discover} (the SDK's,
 * from the capabilities below, with this server's identity in {@code _meta}), the two fleet tools,
 * {@code fleet://verdict} and its listens, each answer with {@code resultType}. The definitions and
 * answers are the 2025 server's ({@link FleetAnswers}): the same verdict bytes and digest in both eras.
 * A transport hands it requests ({@link #requests()}): fleet's stdio layer, or the SDK's servlet
 * behind the HTTP guard.
 */
public final class ModernFleetServer implements AutoCloseable {

    /** Requests fleet's modern era never asks a client for input, so it never seals a request state. */
    private static final RequestStateCodec NO_REQUEST_STATE = new RequestStateCodec() {
        @Override
        public String seal(McpRequestContext context, String state) {
            throw new IllegalStateException("fleet asks no input of a client: there is no request state to seal");
        }

        @Override
        public String open(McpRequestContext context, String sealed) {
            return null; // never called: no method of this server answers input_required
        }
    };

    private final McpServer server;
    private final McpRequestManager requests;
    private final VerdictListens listens;
    private final McpJsonMapper mapper = new JacksonMcpJsonMapper(new ObjectMapper());

    /**
     * @param listens the listens of the 2025 server's verdict feed, so one watcher serves both eras
     */
    public ModernFleetServer(FleetAnswers answers, VerdictListens listens, String name, String version,
            String instructions) {
        this.listens = Objects.requireNonNull(listens, "listens");
        LegacyTypes types = new LegacyTypes(mapper);
        this.server = McpServer.builder()
                .serverInfo(McpSchema.Implementation.builder(name, version).build())
                .instructions(instructions)
                .supportedVersions(List.of(ModernEra.VERSION))
                .jsonMapper(mapper)
                .features(List.of(new FleetToolsFeature(answers, types), new VerdictResourceFeature(answers, types),
                        new VerdictListenFeature(listens)))
                // The SDK's default codec logs a warning about its random key at every start.
                .requestStateCodec(NO_REQUEST_STATE)
                .build();
        this.requests = new CorrectedDiscover(server);
    }

    /** The modern era of {@code fleet}: its tools, its verdict feed's listens, its name and instructions. */
    public static ModernFleetServer of(FleetMcpServer fleet) {
        return new ModernFleetServer(fleet.answers(), fleet.feed().listens(), fleet.serverName(),
                fleet.serverVersion(), fleet.instructions());
    }

    /** What a transport hands each modern request to. */
    public McpRequestManager requests() {
        return requests;
    }

    /** The mapper the modern messages are read and written with. */
    public McpJsonMapper mapper() {
        return mapper;
    }

    /** Ends every open listen with its graceful result: the server is closing. */
    @Override
    public void close() {
        listens.close();
        server.closeGracefully();
    }
}
