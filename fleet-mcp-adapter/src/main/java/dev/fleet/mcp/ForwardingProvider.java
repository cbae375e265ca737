package dev.fleet.mcp;

import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import io.modelcontextprotocol.spec.McpServerTransportProviderBase;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import io.modelcontextprotocol.spec.McpStreamableServerTransportProvider;
import java.util.List;
import java.util.Objects;
import reactor.core.publisher.Mono;

/**
 * A transport provider that hands every call to another, for wrappers that change one of them
 * (counting a resource's subscribers). The SDK has one provider
 * interface per kind of session; this base forwards what they share, and {@link OfSessions} (stdio)
 * and {@link OfStreamableSessions} (streamable HTTP) add the session factory.
 */
public abstract class ForwardingProvider<P extends McpServerTransportProviderBase>
        implements McpServerTransportProviderBase {

    protected final P delegate;

    ForwardingProvider(P delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
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

    /** Forwards a provider of one session per connection, such as stdio's. */
    public static class OfSessions extends ForwardingProvider<McpServerTransportProvider>
            implements McpServerTransportProvider {

        public OfSessions(McpServerTransportProvider delegate) {
            super(delegate);
        }

        @Override
        public void setSessionFactory(McpServerSession.Factory sessionFactory) {
            delegate.setSessionFactory(sessionFactory);
        }
    }

    /** Forwards a streamable HTTP provider. */
    public static class OfStreamableSessions extends ForwardingProvider<McpStreamableServerTransportProvider>
            implements McpStreamableServerTransportProvider {

        public OfStreamableSessions(McpStreamableServerTransportProvider delegate) {
            super(delegate);
        }

        @Override
        public void setSessionFactory(McpStreamableServerSession.Factory sessionFactory) {
            delegate.setSessionFactory(sessionFactory);
        }
    }
}
