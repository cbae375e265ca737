package dev.fleet.mcp.stdio;

import dev.fleet.mcp.Fixtures;
import io.modelcontextprotocol.json.McpJsonMapper;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The server's own mapper, counting how often it reads JSON text. The SDK reads a line's text only
 * through {@code readValue} ({@code McpSchema.deserializeJsonRpcMessage} does); converting parsed
 * values ({@code convertValue}) is not reading text, so a line parsed once by the gate and handed on
 * as a tree leaves this count at zero. Also the lines and the stdin the stdio tests share.
 */
final class TextReadingCount {

    static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
    static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

    private final AtomicInteger reads = new AtomicInteger();
    private final McpJsonMapper mapper = counting(Fixtures.mapper());

    /** The mapper to give the SDK. */
    McpJsonMapper mapper() {
        return mapper;
    }

    int reads() {
        return reads.get();
    }

    /** A stdin whose every read fails, as one whose client vanished may. */
    static InputStream gone() {
        return new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("stdin is gone");
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                throw new IOException("stdin is gone");
            }
        };
    }

    private McpJsonMapper counting(McpJsonMapper real) {
        return (McpJsonMapper) Proxy.newProxyInstance(McpJsonMapper.class.getClassLoader(),
                new Class<?>[] {McpJsonMapper.class}, (proxy, method, args) -> {
                    if (method.getName().equals("readValue")) {
                        reads.incrementAndGet();
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
