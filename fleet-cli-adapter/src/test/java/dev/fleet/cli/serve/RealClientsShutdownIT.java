package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.domain.RegistryRow;
import dev.fleet.cli.testing.Python3;
import dev.fleet.registry.sqlite.SqliteRegistryReader;
import dev.fleet.testing.Patience;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A wrapping member ends with real MCP clients' own shutdown sequences (the contract, §12.1): once each
 * client's sequence is over, no process of the member's tree runs (the member, its child, the child's
 * grandchild in a group of its own and its double-forked daemon; each looked up in {@code /proc}, a
 * zombie counting as gone) and every row the client's members wrote is stopped. The clients are the
 * TypeScript SDK 1.x's {@code close()}, the 2.x client's disposable {@code server/discover} probe and
 * its session, and the Java SDK's {@code closeGracefully()} then {@code close()}; the children
 * ({@link ShutdownChild}) exit on EOF, ignore EOF and SIGTERM, or also leave a grandchild and a daemon.
 */
class RealClientsShutdownIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** A client's whole run on a quiet host: one or two JVMs started, two calls, a sequence of up to ~4 s. */
    private static final Duration CLIENT_RUN = Duration.ofSeconds(60);
    /**
     * Once the client's sequence is over the tree should already be gone: this is only the room to see
     * it (an orphan's exit, a zombie's reaping, the row's last write), on a quiet host, before scaling.
     */
    private static final Duration SETTLES_WITHIN = Duration.ofSeconds(2);
    private static final String PROFILE = "prgs-author";

    @TempDir
    Path dir;

    @BeforeAll
    static void installTheClients() throws Exception {
        NodeMcpChild.install();
    }

    /** The clients, each with its own sequence and the number of members it starts. */
    enum Client {
        TYPESCRIPT_SDK_1(1),
        /** The disposable probe's member, then the session's. */
        TYPESCRIPT_SDK_2(2),
        JAVA_SDK(1);

        final int members;

        Client(int members) {
            this.members = members;
        }
    }

    /** What the client saw before its sequence: the tools listed and the fleet's own runtime context. */
    private record Session(List<String> tools, JsonNode context, String stderr) {
    }

    static Stream<Arguments> everyClientAgainstEveryChild() {
        return Arrays.stream(Client.values()).flatMap(client -> Arrays.stream(ShutdownChild.values())
                .map(child -> Arguments.of(client, child)));
    }

    @ParameterizedTest(name = "{0} against a child that {1}")
    @MethodSource("everyClientAgainstEveryChild")
    void nothingOfTheMembersTreeOutlivesTheClientsOwnShutdownAndItsRowsAreStopped(Client client, ShutdownChild child)
            throws Exception {
        Python3.require("the shutdown tests' wrapped server");
        if (client != Client.JAVA_SDK) {
            NodeMcpChild.requireNodeAndNpm();
        }
        Path registry = dir.resolve("registry.sqlite3");
        Path pids = Files.createDirectories(dir.resolve("pids"));
        List<String> member = WrappedMembers.wrapping(registry, PROFILE, child.command(pids));

        Session session = use(client, member);

        assertTrue(session.tools().containsAll(List.of("hello", "gitea_get_runtime_context")),
                "the child's tool and the fleet's, through the member: " + session.tools());
        List<List<ShutdownChild.TreeProcess>> trees = ShutdownChild.trees(pids);
        assertEquals(client.members, trees.size(), "one child per member the client started: " + trees);
        List<RegistryRow> rows = new SqliteRegistryReader(registry).readAll().rows();
        assertEquals(client.members, rows.size(), "one row per member: " + statuses(registry));
        assertTrue(rows.stream().anyMatch(row -> row.pid() == session.context().path("pid").asLong()),
                "the fleet answered for itself: " + session.context());

        List<ShutdownChild.TreeProcess> everyProcess = new ArrayList<>();
        rows.forEach(row -> everyProcess.add(new ShutdownChild.TreeProcess("member", row.pid())));
        trees.forEach(everyProcess::addAll);
        settles(() -> everyProcess.stream().noneMatch(process -> WrappedMembers.runs(process.pid())),
                () -> "nothing of the members' trees to run once " + client + "'s sequence is over; still running: "
                        + running(everyProcess) + "; the rows (a member the client killed mid-way left its own "
                        + "running): " + statuses(registry)
                        + "; the client's stderr (the session member's too):\n" + session.stderr());
        settles(() -> new SqliteRegistryReader(registry).readAll().rows().stream()
                        .allMatch(row -> "stopped".equals(row.status())),
                () -> "every member's row to be stopped: " + statuses(registry));
    }

    /** Waits {@link #SETTLES_WITHIN}, scaled, for {@code condition}; past that, fails saying {@code what} then. */
    private static void settles(BooleanSupplier condition, Supplier<String> what) throws InterruptedException {
        try {
            Patience.await(SETTLES_WITHIN, Duration.ofMillis(20), condition, "the wait");
        } catch (AssertionError timedOut) {
            throw new AssertionError(what.get() + "\n(" + timedOut.getMessage() + ")", timedOut);
        }
    }

    /** Runs {@code client} against {@code member}: connect, list tools, the runtime context, then its own end. */
    private static Session use(Client client, List<String> member) throws Exception {
        if (client == Client.JAVA_SDK) {
            WrappedMembers.SdkClient sdk = WrappedMembers.SdkClient.of(member);
            McpSyncClient mcp = sdk.client();
            List<String> tools;
            McpSchema.CallToolResult context;
            try {
                mcp.initialize();
                tools = mcp.listTools().tools().stream().map(McpSchema.Tool::name).toList();
                context = mcp.callTool(new McpSchema.CallToolRequest("gitea_get_runtime_context", Map.of()));
            } finally {
                // The SDK's own end: SIGTERM at once, up to 10 s for the exit, then close().
                mcp.closeGracefully();
                mcp.close();
            }
            return new Session(tools, JSON.readTree(WrappedMembers.text(context)), String.join("\n", sdk.stderr()));
        }
        NodeClient.Run run = NodeClient.run(client == Client.TYPESCRIPT_SDK_1 ? NodeClient.Sdk.V1 : NodeClient.Sdk.V2,
                member, CLIENT_RUN);
        JsonNode result = run.result();
        assertFalse(result.path("context_is_error").asBoolean(), result.toString());
        List<String> tools = new ArrayList<>();
        result.path("tools").forEach(tool -> tools.add(tool.asText()));
        return new Session(tools, JSON.readTree(result.path("context").asText()), run.stderr());
    }

    /** Each row of the registry as its member's pid and its status. */
    private static List<String> statuses(Path registry) {
        return new SqliteRegistryReader(registry).readAll().rows().stream()
                .map(row -> "pid " + row.pid() + " " + row.status()).toList();
    }

    /** Those of {@code processes} that run, with their command line. */
    private static List<String> running(List<ShutdownChild.TreeProcess> processes) {
        return processes.stream().filter(process -> WrappedMembers.runs(process.pid()))
                .map(process -> process.role() + " " + process.pid() + " " + commandLine(process.pid())).toList();
    }

    /**
     * Whatever a failing run left behind is killed, so the next run and the host start clean: the
     * processes the children wrote down and the members of this test's registry, each only while its
     * command line is still one of this test's (a pid may have been reused).
     */
    @AfterEach
    void killWhatIsLeft() throws Exception {
        Path registry = dir.resolve("registry.sqlite3");
        List<Long> left = new ArrayList<>();
        if (Files.isDirectory(dir.resolve("pids"))) {
            ShutdownChild.trees(dir.resolve("pids")).forEach(tree -> tree.forEach(process -> left.add(process.pid())));
        }
        if (Files.exists(registry)) {
            new SqliteRegistryReader(registry).readAll().rows().forEach(row -> left.add(row.pid()));
        }
        for (long pid : left) {
            String command = commandLine(pid);
            if (command.contains(ShutdownChild.SCRIPT.toString()) || command.equals("sleep 3600")
                    || command.contains(registry.toString())) {
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }

    private static String commandLine(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")),
                    java.nio.charset.StandardCharsets.UTF_8).replace('\0', ' ').trim();
        } catch (java.io.IOException e) {
            return "";
        }
    }
}
