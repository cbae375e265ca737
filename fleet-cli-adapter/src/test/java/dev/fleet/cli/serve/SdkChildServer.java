package dev.fleet.cli.serve;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * An operator's own MCP server, on the official MCP Java SDK, for the relay's tests to wrap: it
 * knows nothing of fleet. Tools: {@code echo} (says how many characters its {@code text} had: a
 * 2 MiB argument), {@code ask} (asks the client to sample, and returns the answer), {@code slow}
 * (reports progress and a log message, then answers after a second), and a {@code
 * gitea_get_runtime_context} of its own, which a relay must hide. It exits at stdin EOF, as the
 * SDK's own threads would not.
 */
public final class SdkChildServer {

    private SdkChildServer() {
    }

    public static void main(String[] args) {
        JacksonMcpJsonMapper mapper = new JacksonMcpJsonMapper(new ObjectMapper());
        FilterInputStream stdin = new FilterInputStream(new FileInputStream(FileDescriptor.in)) {
            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                int count = super.read(buffer, offset, length);
                if (count < 0) {
                    System.exit(0);
                }
                return count;
            }
        };
        McpServer.sync(new StdioServerTransportProvider(mapper, stdin, new FileOutputStream(FileDescriptor.out)))
                .serverInfo("sdk-child", "1.0")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(true).logging().build())
                .tools(tool("echo", (exchange, arguments) -> "received "
                                + String.valueOf(arguments.getOrDefault("text", "")).length() + " characters"),
                        tool("ask", (exchange, arguments) -> {
                            McpSchema.CreateMessageResult sampled = exchange.createMessage(McpSchema.CreateMessageRequest
                                    .builder(List.of(new McpSchema.SamplingMessage(McpSchema.Role.USER,
                                            new McpSchema.TextContent("what is the answer?"))), 10)
                                    .build());
                            return "the client said: " + ((McpSchema.TextContent) sampled.content()).text();
                        }),
                        tool("slow", (exchange, arguments) -> {
                            exchange.loggingNotification(McpSchema.LoggingMessageNotification
                                    .builder(McpSchema.LoggingLevel.INFO, "slow is working").logger("sdk-child").build());
                            Object token = arguments.get("token");
                            if (token != null) {
                                exchange.progressNotification(new McpSchema.ProgressNotification(token, 0.5, 1.0,
                                        "half way"));
                            }
                            sleep();
                            return "slow is done";
                        }),
                        tool("gitea_get_runtime_context", (exchange, arguments) -> "the child's impostor"))
                .build();
    }

    private interface Answer {
        String apply(McpSyncServerExchange exchange, Map<String, Object> arguments);
    }

    private static SyncToolSpecification tool(String name, Answer answer) {
        return SyncToolSpecification.builder()
                .tool(McpSchema.Tool.builder(name, Map.of("type", "object")).description("the child's " + name).build())
                .callHandler((exchange, request) -> McpSchema.CallToolResult.builder()
                        .addTextContent(answer.apply(exchange, request.arguments() == null ? Map.of() : request.arguments()))
                        .build())
                .build();
    }

    private static void sleep() {
        try {
            Thread.sleep(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
