package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.ServeProcess;
import dev.fleet.testing.Patience;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** {@code fleet serve ... -- COMMAND} for the relay's tests, the servers they wrap, and the client they use. */
final class WrappedMembers {

    private WrappedMembers() {
    }

    /** An operator's own server on the MCP Java SDK ({@link SdkChildServer}), as a command line. */
    static List<String> sdkChild() {
        return List.of(FleetJar.javaBinary(), "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("java.class.path"), SdkChildServer.class.getName());
    }

    /** {@code fleet serve} for this registry and profile, wrapping {@code child}. */
    static List<String> wrapping(Path registry, String profile, List<String> child) {
        List<String> command = new ArrayList<>(ServeProcess.serveCommand(registry, profile));
        command.add("--");
        command.addAll(child);
        return command;
    }

    /**
     * An MCP Java SDK client of {@code command} over stdio, not yet initialized, that answers every
     * sampling request with "42" and keeps what the server sends it besides answers.
     */
    record SdkClient(McpSyncClient client, List<McpSchema.LoggingMessageNotification> logs,
            List<McpSchema.ProgressNotification> progress, List<String> stderr) {

        static SdkClient of(List<String> command) {
            List<McpSchema.LoggingMessageNotification> logs = new CopyOnWriteArrayList<>();
            List<McpSchema.ProgressNotification> progress = new CopyOnWriteArrayList<>();
            List<String> stderr = new CopyOnWriteArrayList<>();
            StdioClientTransport transport = new StdioClientTransport(ServerParameters.builder(command.get(0))
                    .args(command.subList(1, command.size())).build(), new JacksonMcpJsonMapper(new ObjectMapper()));
            transport.setStdErrorHandler(stderr::add);
            McpSyncClient client = McpClient.sync(transport)
                    .requestTimeout(Patience.mcpTimeout())
                    .initializationTimeout(Patience.mcpTimeout())
                    .capabilities(McpSchema.ClientCapabilities.builder().sampling().build())
                    .sampling(request -> McpSchema.CreateMessageResult.builder(McpSchema.Role.ASSISTANT, "42",
                            "test-model").build())
                    .loggingConsumer(logs::add)
                    .progressConsumer(progress::add)
                    .build();
            return new SdkClient(client, logs, progress, stderr);
        }

        /**
         * The log message and the progress a child's {@code slow} tool, called with token {@code p-1},
         * sent before its answer (they may arrive after it); the progress, for what else it says.
         */
        McpSchema.ProgressNotification awaitSlowNotifications() throws InterruptedException {
            Patience.await(java.time.Duration.ofSeconds(10), java.time.Duration.ofMillis(20),
                    () -> !logs.isEmpty() && !progress.isEmpty(), "the child's log and progress notifications");
            assertEquals("slow is working", logs.get(0).data());
            assertEquals("p-1", progress.get(0).progressToken());
            return progress.get(0);
        }
    }

    /** The text of a tool's answer, which must not be an error. */
    static String text(McpSchema.CallToolResult result) {
        assertFalse(Boolean.TRUE.equals(result.isError()), String.valueOf(result.content()));
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    /** The pid a wrapped server's script wrote to {@code file} (a line of its own), once it is there. */
    static long awaitPid(Path file) throws InterruptedException {
        Patience.await(java.time.Duration.ofSeconds(30), java.time.Duration.ofMillis(20), () -> {
            try {
                return Files.isRegularFile(file) && Files.readString(file).endsWith("\n");
            } catch (IOException e) {
                return false;
            }
        }, "the wrapped server to write " + file.getFileName());
        try {
            return Long.parseLong(Files.readString(file).trim());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** Kills {@code process} and everything it started that still runs: a test's clean-up after a failure. */
    static void killTree(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    /** Whether a process of that pid runs: alive, and not a zombie nobody has reaped yet. */
    static boolean runs(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Kills whatever a failing run left behind: each member of {@code registry} and its server, where
     * its command line still names that registry or the installed node scripts (a pid reused since is
     * left alone). For a test's clean-up only.
     */
    static void killWhatIsLeft(Path registry) {
        if (!Files.exists(registry)) {
            return;
        }
        for (dev.fleet.domain.RegistryRow row : new dev.fleet.registry.sqlite.SqliteRegistryReader(registry).readAll()
                .rows()) {
            for (Long pid : new Long[] {row.serverPid(), row.pid()}) {
                if (pid != null && (commandLine(pid).contains(registry.toString())
                        || commandLine(pid).contains(NodeMcpChild.INSTALLED.toString()))) {
                    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
                }
            }
        }
    }

    private static String commandLine(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")),
                    java.nio.charset.StandardCharsets.UTF_8).replace('\0', ' ').trim();
        } catch (IOException e) {
            return "";
        }
    }
}
