package dev.fleet.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.Map;

/**
 * An operator's own MCP server on the official Java SDK, knowing nothing of fleet, for
 * {@link RelayLatency} to call directly, behind {@link RawRelay} and behind {@code fleet serve --
 * COMMAND}: one tool, {@code echo}, which answers with its {@code text}. It exits at stdin EOF, as the
 * SDK's own threads would not (the same shape as the relay's tests' child), and answers calls one at a
 * time (below).
 */
public final class RelayChild {

    private RelayChild() {
    }

    public static void main(String[] args) {
        // stdin, then an end that exits: the SDK's own threads would keep the JVM alive past EOF.
        InputStream stdin = new SequenceInputStream(new FileInputStream(FileDescriptor.in), new InputStream() {
            @Override
            public int read() {
                System.exit(0);
                return -1;
            }
        });
        SyncToolSpecification echo = SyncToolSpecification.builder()
                .tool(McpSchema.Tool.builder("echo", Map.of("type", "object")).description("says its text back").build())
                .callHandler((exchange, request) -> McpSchema.CallToolResult.builder()
                        .addTextContent(String.valueOf(request.arguments() == null ? ""
                                : request.arguments().getOrDefault("text", "")))
                        .build())
                .build();
        McpServer.sync(new StdioServerTransportProvider(new JacksonMcpJsonMapper(new ObjectMapper()), stdin,
                        new FileOutputStream(FileDescriptor.out)))
                .serverInfo("relay-child", "1.0")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
                .tools(echo)
                // Each call answered on the thread that read it, so answers are sent one at a time: SDK 2.2.0's
                // stdio transport drops an answer sent while another thread sends one ("Failed to enqueue
                // message", modelcontextprotocol/java-sdk#686), which pipelined calls run into at once.
                .immediateExecution(true)
                .build();
    }
}
