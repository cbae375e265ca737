package dev.fleet.mcp;

import dev.fleet.domain.port.in.AssessFleetInventoryUseCase;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a member that wraps a server of its own answers itself, outside any SDK session (the relay
 * in {@code dev.fleet.mcp.relay}): the two fleet tools and the resource {@value VerdictResource#URI},
 * the very definitions and answers {@link FleetMcpServer} serves, so a wrapping member's tools are
 * byte for byte those of a plain {@code fleet serve}. Read-only, like them.
 */
public final class FleetAnswers {

    private final AssessFleetInventoryUseCase assess;
    private final Runnable awaitOwnRegistration;
    private final Map<String, ReadOnlyDocumentTool> tools = new LinkedHashMap<>();
    private final McpJsonMapper mapper;

    /**
     * @param awaitOwnRegistration runs before each read of the verdict (bounded)
     * @param tools the fleet tools, in listing order, as {@link FleetMcpServer} builds them: this class
     *     runs assessments, so it never names the lifecycle, which may write (the runtime context's tool
     *     reads it; the composition of the two is {@link FleetMcpServer}'s)
     */
    FleetAnswers(AssessFleetInventoryUseCase assess, Runnable awaitOwnRegistration, List<ReadOnlyDocumentTool> tools,
            McpJsonMapper mapper) {
        this.assess = Objects.requireNonNull(assess, "assess");
        this.awaitOwnRegistration = Objects.requireNonNull(awaitOwnRegistration, "awaitOwnRegistration");
        this.mapper = Objects.requireNonNull(mapper, "mapper");
        tools.forEach(tool -> this.tools.put(tool.tool().name(), tool));
    }

    /** The fleet tools as {@code tools/list} shows them, in the order a plain member lists them. */
    public List<McpSchema.Tool> tools() {
        return tools.values().stream().map(ReadOnlyDocumentTool::tool).toList();
    }

    /** Whether {@code name} is one of the fleet's own tools, which only this process answers. */
    public boolean isFleetTool(String name) {
        return tools.containsKey(name);
    }

    /**
     * Answers a {@code tools/call} of a fleet tool; never throws (a failure is an error result).
     *
     * @throws IllegalArgumentException when {@code request} names no fleet tool
     */
    public McpSchema.CallToolResult call(McpSchema.CallToolRequest request) {
        ReadOnlyDocumentTool tool = tools.get(request.name());
        if (tool == null) {
            throw new IllegalArgumentException("not a fleet tool: " + request.name());
        }
        return tool.call(request);
    }

    /**
     * {@link #call(McpSchema.CallToolRequest)} for a request read outside the SDK's 2025 types (the
     * 2026-07-28 era): {@code arguments} as plain JSON values, where anything but an object or null is
     * wrapped as the server's mapper wraps it ({@link McpJson}), so that the tool refuses it alike.
     */
    public McpSchema.CallToolResult call(String name, Object arguments) {
        @SuppressWarnings("unchecked")
        Map<String, Object> fields = arguments == null ? null : arguments instanceof Map<?, ?> object
                ? (Map<String, Object>) object : Map.of(McpJson.NON_OBJECT_ARGUMENTS, arguments);
        return call(new McpSchema.CallToolRequest(name, fields));
    }

    /** The verdict resource as {@code resources/list} shows it. */
    public McpSchema.Resource verdictResource() {
        return VerdictResource.resource();
    }

    /** {@code resources/read} of the verdict, after this member's own registration attempt. */
    public McpSchema.ReadResourceResult readVerdict() {
        awaitOwnRegistration.run();
        return VerdictResource.read(assess);
    }

    /**
     * Watches the verdict for one client (a relay serves one): while {@code subscribed} says so, an
     * assessment every second, and {@code notify} when its digest changes, as for a plain member.
     */
    public VerdictWatch watchVerdict(java.util.function.BooleanSupplier subscribed, Runnable notify) {
        VerdictSubscriptions subscriptions = new VerdictSubscriptions(() -> assess.assess().verdictDigest(),
                () -> subscribed.getAsBoolean() ? 1 : 0, notify, VerdictSubscriptions.PERIOD);
        return new VerdictWatch() {
            @Override
            public void subscribed() {
                subscriptions.subscribed(VerdictSubscriptions.BASELINE_WAIT);
            }

            @Override
            public void close() {
                subscriptions.close();
            }
        };
    }

    /** The mapper the SDK and the tools read and write MCP's types with. */
    public McpJsonMapper mapper() {
        return mapper;
    }

    /** A watch of the verdict for its subscriber. */
    public interface VerdictWatch extends AutoCloseable {
        /**
         * A subscription or a listen came: watch, if nothing does yet, and return once the watcher has its first look
         * (or after five periods), so that a change after the acknowledgement is announced.
         */
        void subscribed();

        @Override
        void close();
    }
}
