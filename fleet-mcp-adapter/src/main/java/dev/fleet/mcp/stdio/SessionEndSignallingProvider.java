package dev.fleet.mcp.stdio;

import dev.fleet.mcp.ForwardingProvider;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import reactor.core.publisher.Mono;

/**
 * The SDK's stdio provider with its sends serialised, plus a signal when its one session's transport
 * is closed.
 *
 * <p>Serialised sends: SDK 2.1.0 queues each outgoing message with {@code emitNext} on a Reactor
 * sink, which must be called serially, and busy-loops at most 100 ms when two threads call it at
 * once; tool calls are answered from several threads, so under CPU contention a pipelining client
 * made that loop time out ({@code FAIL_NON_SERIALIZED}, "Spec. Rule 1.3"), the failed send ended
 * the SDK's inbound stream, and with it the session: the server believed stdin closed. Here every
 * send enters the SDK under one lock, so the sink is only ever emitted to by one thread at a time.
 * The SDK's send runs synchronously once its transport is ready (its ready signals are set when
 * the stdin loop and the writer start, before any request is read); only the answer to
 * {@code initialize} can meet an unready transport, and no other send can race it then, since the
 * gate passes nothing else before the session is initialized.
 *
 * <p>Session end: the SDK
 * closes it when its stdin loop ends for any reason: EOF (which {@link StdinLines} also signals),
 * or a failure of its own inbound processing. Lines it cannot parse never reach it
 * ({@link JsonRpcGate} answers them), so a client's mistake does not end the loop; if the loop ends
 * anyway, this server has no client left, so it must mark its row stopped and exit rather than
 * linger as a process that looks like a live member.
 */
final class SessionEndSignallingProvider extends ForwardingProvider.OfSessions {

    private final Runnable onSessionEnd;

    SessionEndSignallingProvider(McpServerTransportProvider delegate, Runnable onSessionEnd) {
        super(delegate);
        this.onSessionEnd = Objects.requireNonNull(onSessionEnd, "onSessionEnd");
    }

    @Override
    public void setSessionFactory(McpServerSession.Factory sessionFactory) {
        delegate.setSessionFactory(transport -> sessionFactory.create(new Signalling(transport)));
    }

    private final class Signalling implements McpServerTransport {

        private final McpServerTransport transport;
        private final Object sendLock = new Object();

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
            return Mono.defer(() -> {
                CompletableFuture<Void> queued;
                synchronized (sendLock) {
                    queued = transport.sendMessage(message).toFuture(); // subscribes, and so emits, here
                }
                return Mono.fromFuture(queued);
            });
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
