package dev.fleet.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.domain.RosterMember;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The demo's servers: real {@code fleet serve} processes launched from this jar, each held by the
 * SDK's own stdio MCP client, which is how an LLM client runs them.
 */
final class DemoFleet implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path registry;
    private final Path repository;
    private final PrintWriter out;
    private final Map<String, McpSyncClient> byProfile = new LinkedHashMap<>();
    private final List<McpSyncClient> clients = new ArrayList<>();
    private final List<ProcessHandle> servers = new ArrayList<>();
    private boolean closed;

    DemoFleet(Path registry, Path repository, PrintWriter out) {
        this.registry = registry;
        this.repository = repository;
        this.out = out;
    }

    /** Starts one server per member, all at once, and completes the MCP handshake with each. */
    synchronized void launch(List<RosterMember> members, String cohort) {
        if (closed) {
            // Interrupted: a server started now would outlive the clean-up and recreate the registry.
            throw new IllegalStateException("the demo is shutting down");
        }
        List<CompletableFuture<McpSyncClient>> starting = members.stream()
                .map(member -> CompletableFuture.supplyAsync(() -> connect(member, cohort)))
                .toList();
        for (int i = 0; i < members.size(); i++) {
            McpSyncClient client = starting.get(i).join();
            clients.add(client);
            byProfile.putIfAbsent(members.get(i).profile(), client);
            out.printf("   started %s (cohort %s)%n", DemoCommand.name(members.get(i)), cohort);
        }
        out.flush();
        ProcessHandle.current().children().forEach(child -> {
            if (!servers.contains(child)) {
                servers.add(child);
            }
        });
    }

    private McpSyncClient connect(RosterMember member, String cohort) {
        ServerParameters server = ServerParameters.builder(javaBinary())
                .args("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-jar", ownJar().toString(), "serve",
                        "--profile", member.profile(), "--registry", registry.toString(),
                        "--repository-root", repository.toString())
                .env(DemoCommand.cohortEnv(cohort))
                .build();
        McpSyncClient client = McpClient.sync(new StdioClientTransport(server, new JacksonMcpJsonMapper(JSON)))
                .requestTimeout(Duration.ofSeconds(20))
                .initializationTimeout(Duration.ofSeconds(20))
                .build();
        client.initialize();
        return client;
    }

    /** Calls {@code gitea_assess_fleet_inventory} through the member with this profile. */
    DemoVerdict assess(String profile) {
        McpSchema.CallToolResult result = byProfile.get(profile)
                .callTool(new McpSchema.CallToolRequest("gitea_assess_fleet_inventory", Map.of()));
        return new DemoVerdict(profile, JSON.valueToTree(result.structuredContent()));
    }

    boolean allExited() {
        return servers.stream().noneMatch(ProcessHandle::isAlive);
    }

    /** Closes every client: each closes its server's stdin, and the server marks itself stopped. */
    @Override
    public synchronized void close() {
        closed = true;
        for (McpSyncClient client : clients) {
            try {
                client.closeGracefully();
            } catch (RuntimeException e) {
                // Closing one client must not keep the others (and their servers) alive.
                System.err.println("fleet demo: closing a client failed: " + e.getMessage());
            }
        }
        clients.clear();
        byProfile.clear();
        for (ProcessHandle server : servers) {
            server.onExit().completeOnTimeout(server, 5, java.util.concurrent.TimeUnit.SECONDS).join();
        }
    }

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static Path ownJar() {
        try {
            return Path.of(DemoFleet.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the fleet jar", e);
        }
    }
}
