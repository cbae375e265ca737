package dev.fleet.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.util.Objects;

/**
 * The server's JSON mapper, which also sees every {@code resources/subscribe}: SDK 2.1.0 offers no
 * hook that tells a server a client subscribed (its handler only records the session), but that
 * handler reads the request's parameters through the server's mapper first. Here that reading
 * refuses a URI this server does not serve with -32002 (resource not found, as {@code resources/read}
 * answers; the SDK would accept any URI) and wakes {@link VerdictSubscriptions} for
 * {@value VerdictResource#URI}. Everything else passes to the mapper unchanged.
 */
final class SubscribeWatchingMapper implements McpJsonMapper {

    private final McpJsonMapper delegate;
    private final Runnable onSubscribe;

    SubscribeWatchingMapper(McpJsonMapper delegate, Runnable onSubscribe) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.onSubscribe = Objects.requireNonNull(onSubscribe, "onSubscribe");
    }

    @Override
    public <T> T convertValue(Object fromValue, TypeRef<T> type) {
        T value = delegate.convertValue(fromValue, type);
        if (value instanceof McpSchema.SubscribeRequest subscribe) {
            if (!VerdictResource.URI.equals(subscribe.uri())) {
                throw McpError.RESOURCE_NOT_FOUND.apply(String.valueOf(subscribe.uri()));
            }
            onSubscribe.run();
        }
        return value;
    }

    @Override
    public <T> T convertValue(Object fromValue, Class<T> type) {
        return delegate.convertValue(fromValue, type);
    }

    @Override
    public <T> T readValue(String content, Class<T> type) throws IOException {
        return delegate.readValue(content, type);
    }

    @Override
    public <T> T readValue(byte[] content, Class<T> type) throws IOException {
        return delegate.readValue(content, type);
    }

    @Override
    public <T> T readValue(String content, TypeRef<T> type) throws IOException {
        return delegate.readValue(content, type);
    }

    @Override
    public <T> T readValue(byte[] content, TypeRef<T> type) throws IOException {
        return delegate.readValue(content, type);
    }

    @Override
    public String writeValueAsString(Object value) throws IOException {
        return delegate.writeValueAsString(value);
    }

    @Override
    public byte[] writeValueAsBytes(Object value) throws IOException {
        return delegate.writeValueAsBytes(value);
    }
}
