package dev.fleet.mcp.stdio;

import dev.fleet.mcp.Fixtures;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The server's own mapper, counting how often it reads JSON text. The SDK reads a line's text only
 * through {@code readValue} ({@code McpSchema.deserializeJsonRpcMessage} does); converting parsed
 * values ({@code convertValue}) is not reading text, so a line parsed once by the gate and handed on
 * as a tree leaves this count at zero.
 */
final class TextReadingCount implements McpJsonMapper {

    private final McpJsonMapper mapper = Fixtures.mapper();
    private final AtomicInteger reads = new AtomicInteger();

    int reads() {
        return reads.get();
    }

    @Override
    public <T> T readValue(String content, Class<T> type) throws IOException {
        reads.incrementAndGet();
        return mapper.readValue(content, type);
    }

    @Override
    public <T> T readValue(byte[] content, Class<T> type) throws IOException {
        reads.incrementAndGet();
        return mapper.readValue(content, type);
    }

    @Override
    public <T> T readValue(String content, TypeRef<T> type) throws IOException {
        reads.incrementAndGet();
        return mapper.readValue(content, type);
    }

    @Override
    public <T> T readValue(byte[] content, TypeRef<T> type) throws IOException {
        reads.incrementAndGet();
        return mapper.readValue(content, type);
    }

    @Override
    public <T> T convertValue(Object fromValue, Class<T> type) {
        return mapper.convertValue(fromValue, type);
    }

    @Override
    public <T> T convertValue(Object fromValue, TypeRef<T> type) {
        return mapper.convertValue(fromValue, type);
    }

    @Override
    public String writeValueAsString(Object value) throws IOException {
        return mapper.writeValueAsString(value);
    }

    @Override
    public byte[] writeValueAsBytes(Object value) throws IOException {
        return mapper.writeValueAsBytes(value);
    }
}
