package dev.fleet.mcp;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.util.List;
import java.util.Objects;
import reactor.core.publisher.Mono;

/**
 * The SDK's stdio provider, plus a signal when its one session's transport is closed. The SDK
 * closes it when its stdin loop ends for any reason: EOF (which {@link StdinLines} also signals),
 * or a failure of its own inbound processing. Lines it cannot parse never reach it
 * ({@link JsonRpcGate} answers them), so a client's mistake does not end the loop; if the loop ends
 * anyway, this server has no client left, so it must mark its row stopped and exit rather than
 * linger as a process that looks like a live member.
 */
final class SessionEndSignallingProvider implements McpServerTransportProvider {

    private final McpServerTransportProvider delegate;
    private final Runnable onSessionEnd;

    SessionEndSignallingProvider(McpServerTransportProvider delegate, Runnable onSessionEnd) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.onSessionEnd = Objects.requireNonNull(onSessionEnd, "onSessionEnd");
    }

    @Override
    public void setSessionFactory(McpServerSession.Factory sessionFactory) {
        delegate.setSessionFactory(transport -> sessionFactory.create(new Signalling(transport)));
    }

    @Override
    public Mono<Void> notifyClients(String method, Object params) {
        return delegate.notifyClients(method, params);
    }

    @Override
    public Mono<Void> notifyClient(String sessionId, String method, Object params) {
        return delegate.notifyClient(sessionId, method, params);
    }

    @Override
    public void close() {
        delegate.close();
    }

    @Override
    public Mono<Void> closeGracefully() {
        return delegate.closeGracefully();
    }

    @Override
    public List<String> protocolVersions() {
        return delegate.protocolVersions();
    }

    private final class Signalling implements McpServerTransport {

        private final McpServerTransport transport;

        Signalling(McpServerTransport transport) {
            this.transport = transport;
        }

        @Override
        public void close() {
            try {
                transport.close();
            } finally {
                onSessionEnd.run();
            }
        }

        @Override
        public Mono<Void> closeGracefully() {
            return transport.closeGracefully();
        }

        @Override
        public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
            return transport.sendMessage(message);
        }

        @Override
        public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
            return transport.unmarshalFrom(data, typeRef);
        }

        @Override
        public List<String> protocolVersions() {
            return transport.protocolVersions();
        }
    }
}
