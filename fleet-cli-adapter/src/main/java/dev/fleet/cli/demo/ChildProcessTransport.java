package dev.fleet.cli.demo;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * An MCP client transport over the stdin and stdout of a server process the demo started itself.
 * The SDK's {@code StdioClientTransport} ends its server with a signal; this one ends it the way a
 * departing MCP client does, by closing the server's stdin, and then waits for it to exit.
 */
final class ChildProcessTransport implements McpClientTransport {

    private static final Duration EXIT_WAIT = Duration.ofSeconds(10);

    private final Process server;
    private final McpJsonMapper mapper;
    private final OutputStream stdin;

    ChildProcessTransport(Process server, McpJsonMapper mapper) {
        this.server = server;
        this.mapper = mapper;
        this.stdin = server.getOutputStream();
    }

    @Override
    public Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
        return Mono.fromRunnable(() -> {
            Thread reader = new Thread(() -> read(handler), "fleet-demo-mcp-" + server.pid());
            reader.setDaemon(true);
            reader.start();
        });
    }

    /** One JSON-RPC message per line, as the stdio transport frames them; ends when the server closes stdout. */
    private void read(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
        try (BufferedReader lines = new BufferedReader(
                new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (!line.isBlank()) {
                    handler.apply(Mono.just(McpSchema.deserializeJsonRpcMessage(mapper, line))).subscribe();
                }
            }
        } catch (IOException closed) {
            // The server is gone; pending requests time out in the client.
        }
    }

    @Override
    public Mono<Void> sendMessage(JSONRPCMessage message) {
        return Mono.fromRunnable(() -> {
            try {
                byte[] line = (mapper.writeValueAsString(message) + "\n").getBytes(StandardCharsets.UTF_8);
                synchronized (stdin) {
                    stdin.write(line);
                    stdin.flush();
                }
            } catch (IOException e) {
                throw new UncheckedIOException("server " + server.pid() + " no longer reads its stdin", e);
            }
        });
    }

    /** Closes the server's stdin: end of input is how an MCP client says it is leaving. */
    void closeStdin() {
        synchronized (stdin) {
            try {
                stdin.close();
            } catch (IOException alreadyClosed) {
                // Nothing left to close.
            }
        }
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.fromRunnable(this::closeStdin)
                .then(Mono.fromFuture(server.onExit()).timeout(EXIT_WAIT, Mono.just(server)))
                .then();
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
        return mapper.convertValue(data, typeRef);
    }
}
