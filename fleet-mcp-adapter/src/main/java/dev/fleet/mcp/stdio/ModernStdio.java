package dev.fleet.mcp.stdio;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fleet.mcp.RequestParams;
import dev.fleet.mcp.jsonrpc.JsonRpcError;
import dev.fleet.mcp.jsonrpc.JsonRpcId;
import dev.fleet.mcp.modern.ModernFleetServer;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.modern.JsonRpc;
import io.modelcontextprotocol.modern.server.McpHeaders;
import io.modelcontextprotocol.modern.server.McpTransportResponse;
import java.io.IOException;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The 2026-07-28 era on fleet's stdio layer: the requests {@link JsonRpcGate} found to claim that
 * revision go, already parsed and checked, to the SDK's stateless server ({@link ModernFleetServer});
 * what it answers is written as lines by the same {@link LineOutput} as the 2025 session's answers.
 *
 * <p>Not the SDK's {@code StdioMcpTransport}: it reads stdin itself and serves the modern era only
 * (an {@code initialize} gets -32022), where one process must serve whichever era its client opens
 * with, and every stdin line must pass the gate's bounds and checks (§7) whatever its era.
 *
 * <p>A request's answer goes through the place the gate reserved for it ({@link LineOutput#writeAnswer}).
 * A {@code subscriptions/listen} reserves none: it is answered only when the server closes, and its
 * acknowledgement and updates are notifications; the client's {@code notifications/cancelled} naming
 * it ends it (and with it, if no one else listens, the background assessment). At most
 * {@value #MAX_LISTENS} are open at once, each under its own id ({@link #listenRefused}).
 */
final class ModernStdio {

    static final String LISTEN = "subscriptions/listen";
    /**
     * Listens open at once, at most, as many as the answers that may wait: each holds its subscription and
     * its stream, and a client that opens them without end must not fill the heap (HTTP bounds its own
     * by its 64 connections).
     */
    static final int MAX_LISTENS = 64;
    private static final Logger LOG = LoggerFactory.getLogger(ModernStdio.class);
    /** stdio has no HTTP headers to mirror a tool's parameters into (the SDK's own stdio context). */
    private static final McpTransportContext CONTEXT =
            McpTransportContext.create(Map.of(McpHeaders.TRANSPORT_CONTEXT_KEY, McpHeaders.NOT_MIRRORED));
    private static final TypeRef<Map<String, Object>> OBJECT = new TypeRef<>() {
    };

    private final ModernFleetServer server;
    private final McpJsonMapper mapper;
    private final LineOutput out;
    /**
     * Open listens by their id's key: compared by value (§12.1), as the relay compares ids, so that a
     * cancellation of {@code 7.0} ends the listen {@code 7} ({@code 1} and {@code "1"} still differ).
     */
    private final Map<String, Disposable> listens = new ConcurrentHashMap<>();
    /** Listens opened and not yet over, their final result written: what an exit waits for. */
    private final AtomicInteger unfinished = new AtomicInteger();

    ModernStdio(ModernFleetServer server, LineOutput out) {
        this.server = Objects.requireNonNull(server, "server");
        this.mapper = server.mapper();
        this.out = Objects.requireNonNull(out, "out");
    }

    /**
     * Why a listen of {@code id} cannot open now, or null when it can: its id names an open listen (the
     * answer to one would be taken for the other's), or {@value #MAX_LISTENS} listens are open. Asked by
     * the one stdin thread before {@link #request}, so nothing opens in between.
     */
    JsonRpcError listenRefused(JsonRpcId id) {
        if (listens.containsKey(id.key())) {
            return new JsonRpcError(JsonRpcError.INVALID_REQUEST,
                    "Invalid Request: a listen with this id is open; cancel it, or use another id");
        }
        if (listens.size() >= MAX_LISTENS) {
            return new JsonRpcError(JsonRpcError.SERVER_BUSY, "Server busy: " + MAX_LISTENS
                    + " listens are open; cancel one first");
        }
        return null;
    }

    /**
     * Serves one request; returns at once (the answer is written when it is ready, on another thread).
     *
     * @param id an id the SDK takes ({@link JsonRpcId#fitsTheSdk()}), as the gate admits
     * @param params an object or null, as the gate admits
     */
    void request(JsonRpcId id, String method, JsonNode params) {
        Map<String, Object> fields = params == null || params.isNull() ? null : mapper.convertValue(params, OBJECT);
        JsonRpc.JSONRPCRequest request = new JsonRpc.JSONRPCRequest(method, sdkValue(id), fields);
        Flux<JsonRpc.JSONRPCMessage> messages = Mono.defer(() -> server.requests().handle(CONTEXT, request))
                .subscribeOn(Schedulers.boundedElastic()) // an assessment blocks; never on the stdin thread
                .flatMapMany(ModernStdio::messages);
        if (!LISTEN.equals(method)) {
            messages.subscribe(message -> write(message, id), error -> failed(id, method, error, id));
            return;
        }
        Disposable.Swap listen = Disposables.swap();
        if (listens.putIfAbsent(id.key(), listen) != null) {
            throw new IllegalStateException("a listen opened though its id names an open one"); // listenRefused first
        }
        // The listen's place is free before its final result is written: a client that reads it may reuse the id.
        // It is over (what an exit waits for) once that result is written.
        unfinished.incrementAndGet();
        listen.update(messages.doFinally(signal -> {
            listens.remove(id.key(), listen);
            unfinished.decrementAndGet();
        }).subscribe(message -> {
            if (message instanceof JsonRpc.JSONRPCResponse) {
                listens.remove(id.key(), listen);
            }
            write(message, null);
        }, error -> {
            listens.remove(id.key(), listen);
            failed(id, LISTEN, error, null);
        }));
    }

    /**
     * A request whose answer failed to come (the SDK answers what it can with an error response itself):
     * it is answered all the same, with -32603, so no client waits for ever and its reserved place is freed.
     */
    private void failed(JsonRpcId id, String method, Throwable error, JsonRpcId reserved) {
        String named = RequestParams.clientText(method);
        LOG.warn("answering a {} failed: {}", named, error.toString());
        send(new JsonRpcError(JsonRpcError.INTERNAL_ERROR, "Internal error: the " + named + " could not be answered")
                .bytes(id), reserved);
    }

    /**
     * Once the server has closed the listens, waits until {@code deadline} ({@link System#nanoTime}) at most
     * for each open one's final result to be written: the results are written on other threads, and an exit
     * must not cut them off.
     */
    void awaitListensAnswered(long deadline) {
        while (unfinished.get() > 0 && System.nanoTime() - deadline < 0) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * {@code notifications/cancelled} of {@code requestId} (null when it names none): ends the listen it
     * names, if open; other requests run to their answer.
     */
    void cancelled(JsonRpcId requestId) {
        Disposable listen = requestId == null || !requestId.legal() ? null : listens.remove(requestId.key());
        if (listen != null) {
            listen.dispose();
        }
    }

    /** The id as the SDK's messages hold it: a string, or an integer as the SDK's own reader makes it. */
    private Object sdkValue(JsonRpcId id) {
        try {
            return mapper.readValue(id.json(), Object.class);
        } catch (IOException e) {
            throw new IllegalStateException("an id read once could not be read again", e);
        }
    }

    private static Flux<JsonRpc.JSONRPCMessage> messages(McpTransportResponse response) {
        if (response instanceof McpTransportResponse.Streaming streaming) {
            return streaming.messages();
        }
        return Flux.just(response instanceof McpTransportResponse.Result result ? result.response()
                : ((McpTransportResponse.Error) response).response());
    }

    /**
     * One message as one line; the answer to a request frees the place the gate reserved under
     * {@code reserved}, its id (null for a listen's messages: no place is reserved for a listen).
     */
    private void write(JsonRpc.JSONRPCMessage message, JsonRpcId reserved) {
        byte[] line;
        try {
            line = mapper.writeValueAsBytes(message);
        } catch (IOException | RuntimeException e) {
            LOG.error("could not encode a {} for the client: {}", message.getClass().getSimpleName(), e.toString());
            return;
        }
        send(line, message instanceof JsonRpc.JSONRPCResponse ? reserved : null);
    }

    /** One line; an answer to a request the gate reserved a place for (under {@code reserved}) frees that place. */
    private void send(byte[] line, JsonRpcId reserved) {
        if (reserved != null) {
            out.writeAnswer(reserved, line);
        } else {
            out.writeLine(line);
        }
    }
}
