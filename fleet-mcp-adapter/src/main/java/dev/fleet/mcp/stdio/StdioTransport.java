package dev.fleet.mcp.stdio;

import dev.fleet.mcp.jsonrpc.JsonRpcError;
import dev.fleet.mcp.jsonrpc.JsonRpcId;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * The SDK's one stdio session, on stdio's one line reader and one line writer: a thread reads stdin
 * with {@link BoundedLines}, {@link JsonRpcGate} parses each line once and answers what the SDK
 * cannot take, and the message it admits (made from that parse) goes straight to
 * {@link McpServerSession#handle}; everything the session sends is written whole by
 * {@link LineOutput}. It replaces the SDK's own {@code StdioServerTransportProvider}, which read
 * stdin itself and so parsed every line a second time, stopped reading for good at the first line it
 * could not parse, and queued its sends on a Reactor sink that failed under contention when tool
 * answers came from several threads ({@code FAIL_NON_SERIALIZED}, which ended the session).
 *
 * <p>What it keeps of the SDK's provider: one session, created when the server is built, before
 * {@link #start()} reads a line, so the transport is ready for every request; and serialised sends:
 * each message is written on the thread that sends it, under {@link LineOutput}'s lock, with no
 * queue in between. An answer the client does not read blocks its own sender, and the gate's bound
 * on unwritten answers ({@link LineOutput#reserveAnswer}) stops stdin being read meanwhile.
 *
 * <p>The end of stdin (EOF, or a read error) is the client's end: it is signalled once, whatever
 * ended the reader, so the server never lingers as a process that looks like a live member. A line
 * whose handling fails is logged and the reader reads on: bad input never ends the server.
 */
final class StdioTransport implements McpServerTransportProvider {

    private static final Logger LOG = LoggerFactory.getLogger(StdioTransport.class);

    private final McpJsonMapper mapper;
    private final InputStream stdin;
    private final LineOutput out;
    private final JsonRpcGate gate;
    private final Runnable onEnd;
    private final int maxLineBytes;
    private volatile McpServerSession session;
    /** Set once the session closes: nothing more is handed to it or written for it. */
    private volatile boolean closing;

    /**
     * @param mapper the SDK server's mapper: it makes the session's messages and writes what it sends
     * @param onEnd told once, when stdin has ended
     */
    StdioTransport(McpJsonMapper mapper, InputStream stdin, LineOutput out, Runnable onEnd) {
        this(mapper, stdin, out, onEnd, BoundedLines.MAX_LINE_BYTES);
    }

    StdioTransport(McpJsonMapper mapper, InputStream stdin, LineOutput out, Runnable onEnd, int maxLineBytes) {
        this(mapper, stdin, out, onEnd, maxLineBytes, null);
    }

    /** @param modern where requests of the 2026-07-28 era go, or null to serve the 2025 era only */
    StdioTransport(McpJsonMapper mapper, InputStream stdin, LineOutput out, Runnable onEnd, int maxLineBytes,
            ModernStdio modern) {
        this.mapper = Objects.requireNonNull(mapper, "mapper");
        this.stdin = Objects.requireNonNull(stdin, "stdin");
        this.out = Objects.requireNonNull(out, "out");
        this.onEnd = Objects.requireNonNull(onEnd, "onEnd");
        this.maxLineBytes = maxLineBytes;
        this.gate = new JsonRpcGate(mapper, out, modern);
    }

    /** Called by the SDK while the server is built: stdio has one session. */
    @Override
    public void setSessionFactory(McpServerSession.Factory sessionFactory) {
        if (session != null) {
            throw new IllegalStateException("a stdio transport serves one session");
        }
        session = sessionFactory.create(new SessionTransport());
    }

    /** Starts reading stdin on a thread of its own; the server, and so its session, must be built. */
    void start() {
        McpServerSession current = session;
        if (current == null) {
            throw new IllegalStateException("no session yet: build the server on this transport first");
        }
        Thread reader = new Thread(() -> read(current), "fleet-stdio-in");
        reader.setDaemon(true); // the server exits explicitly (ExitAction); a blocked read must not hold the JVM
        reader.start();
    }

    private void read(McpServerSession current) {
        BoundedLines lines = new BoundedLines(stdin, "stdin", maxLineBytes);
        BoundedLines.Sink sink = new BoundedLines.Sink() {
            @Override
            public void line(byte[] buffer, int length) {
                if (closing) {
                    return;
                }
                try {
                    if (gate.admit(buffer, length) instanceof Admission.Passed passed) {
                        McpSchema.JSONRPCMessage message = passed.message();
                        current.handle(message).subscribe(null, error -> LOG.warn("handling a {} failed: {}",
                                message.getClass().getSimpleName(), error.toString()));
                    }
                } catch (RuntimeException e) {
                    LOG.error("a stdin line could not be handled; reading on", e); // a bug, never the client's input
                }
            }

            @Override
            public void tooLong(int limit) {
                gate.tooLong(limit);
            }
        };
        try {
            lines.forEach(sink);
        } finally {
            onEnd.run();
        }
    }

    @Override
    public Mono<Void> notifyClients(String method, Object params) {
        McpServerSession current = session;
        return current == null ? Mono.error(new IllegalStateException("no session to notify"))
                : current.sendNotification(method, params);
    }

    @Override
    public Mono<Void> notifyClient(String sessionId, String method, Object params) {
        return Mono.defer(() -> {
            McpServerSession current = session;
            if (current == null || !current.getId().equals(sessionId)) {
                return Mono.error(new IllegalStateException("no session " + sessionId + " on this stdio transport"));
            }
            return current.sendNotification(method, params);
        });
    }

    @Override
    public Mono<Void> closeGracefully() {
        McpServerSession current = session;
        return current == null ? Mono.empty() : current.closeGracefully();
    }

    /** The session's side: what it sends goes out as one line, on the sender's thread. */
    private final class SessionTransport implements McpServerTransport {

        @Override
        public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
            return Mono.fromRunnable(() -> send(message));
        }

        @Override
        public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
            return mapper.convertValue(data, typeRef);
        }

        @Override
        public Mono<Void> closeGracefully() {
            return Mono.fromRunnable(this::close);
        }

        @Override
        public void close() {
            closing = true;
        }

        private void send(McpSchema.JSONRPCMessage message) {
            if (closing) {
                LOG.debug("the session is closing: a {} is not sent", message.getClass().getSimpleName());
                return;
            }
            if (message instanceof McpSchema.JSONRPCResponse answer) {
                out.writeAnswer(JsonRpcId.ofValue(answer.id()), encode(answer));
            } else {
                byte[] line = encodeOrNull(message);
                if (line != null) {
                    out.writeLine(line);
                }
            }
        }

        /** An answer as a line; one that cannot be encoded still answers its request, with an error. */
        private byte[] encode(McpSchema.JSONRPCResponse answer) {
            byte[] line = encodeOrNull(answer);
            if (line == null) {
                line = new JsonRpcError(JsonRpcError.INTERNAL_ERROR, "Internal error: the answer could not be "
                        + "encoded").bytes(JsonRpcId.ofValue(answer.id()));
            }
            return line;
        }

        private byte[] encodeOrNull(McpSchema.JSONRPCMessage message) {
            try {
                return mapper.writeValueAsBytes(message);
            } catch (IOException | RuntimeException e) {
                LOG.error("could not encode a {} for the client: {}", message.getClass().getSimpleName(), e.toString());
                return null;
            }
        }
    }
}
