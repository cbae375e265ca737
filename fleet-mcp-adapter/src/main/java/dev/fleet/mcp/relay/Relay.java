package dev.fleet.mcp.relay;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fleet.mcp.FleetAnswers;
import dev.fleet.mcp.stdio.LineOutput;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The relay between an MCP client and the member's own server (the child), one line at a time in
 * each direction, each line parsed once (the contract, §12). Every message passes unchanged, byte for
 * byte, except the amendments of §12: the child's capabilities and last list pages
 * ({@link Amendments}), the requests this member answers itself ({@link OwnRequest},
 * {@link OwnAnswers}), and {@code notifications/cancelled} for those.
 *
 * <p>What no message may get around: a response from the child goes out only when its id is that
 * of a request the client sent and the relay forwarded, not yet answered (the child never answers
 * for the fleet); a client line with a duplicate key in any object is refused (the child might read
 * another {@code name} than the relay did); a batch holding a request the member answers itself is
 * refused. Lines that are not JSON get a parse error from the member (from the client) or are
 * dropped with a warning (from the child): the client's stdout carries JSON-RPC only.
 *
 * <p>One thread calls {@link #fromClient} and then {@link #clientDrained} once what it read is
 * handled, another {@link #fromChild} and {@link #childDrained}: lines passed on are flushed then;
 * each direction keeps its order, and the member's own answers go out when ready.
 */
public final class Relay implements AutoCloseable {

    /** Requests forwarded to the child and not yet answered, at most: a bound on what the relay remembers. */
    static final int MAX_FORWARDED = 4096;

    private static final Logger LOG = LoggerFactory.getLogger(Relay.class);

    /** Strict: a duplicate key, or a second value after the message, is not one message. */
    private final ObjectMapper json = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    private final LineOutput toClient;
    private final LineOutput toChild;
    private final FleetAnswers fleet;
    private final Amendments amendments;
    private final OwnAnswers own;
    /** The id key of each request forwarded to the child and not yet answered, with its method. */
    private final Map<String, String> forwarded = new ConcurrentHashMap<>();

    Relay(FleetAnswers fleet, LineOutput toClient, LineOutput toChild) {
        this.fleet = Objects.requireNonNull(fleet, "fleet");
        this.toClient = Objects.requireNonNull(toClient, "toClient");
        this.toChild = Objects.requireNonNull(toChild, "toChild");
        ArrayNode tools = json.createArrayNode();
        fleet.tools().forEach(tool -> tools.add(fleet.mapper().convertValue(tool, JsonNode.class)));
        this.amendments = new Amendments(tools, fleet.mapper().convertValue(fleet.verdictResource(), JsonNode.class));
        this.own = new OwnAnswers(fleet, amendments, this::writeToClient);
    }

    /** One line from the client, without its terminator. */
    public void fromClient(byte[] buffer, int length) {
        JsonNode message;
        try {
            message = json.readTree(buffer, 0, length);
        } catch (JacksonException e) {
            boolean duplicate = String.valueOf(e.getOriginalMessage()).startsWith("Duplicate field");
            replyError(NullNode.instance, duplicate ? -32600 : -32700, duplicate
                    ? "Invalid Request: an object holds the same key twice" : "Parse error: not one JSON value");
            return;
        } catch (java.io.IOException e) {
            replyError(NullNode.instance, -32700, "Parse error: not one JSON value");
            return;
        }
        if (message == null || message.isMissingNode()) {
            return; // a blank line is no message at all
        }
        if (message instanceof ObjectNode object) {
            clientMessage(object, buffer, length);
        } else if (message instanceof ArrayNode batch) {
            clientBatch(batch, buffer, length);
        } else {
            replyError(NullNode.instance, -32600, "Invalid Request: a JSON-RPC message is an object");
        }
    }

    /** A client line longer than the limit: discarded unread, and answered once (the contract, §7). */
    public void clientLineTooLong(int limit) {
        replyError(NullNode.instance, -32600, "Invalid Request: line longer than " + limit + " bytes, discarded unread");
    }

    /** One line from the child's stdout, without its terminator. */
    public void fromChild(byte[] buffer, int length) {
        JsonNode message;
        try {
            message = json.readTree(buffer, 0, length);
        } catch (java.io.IOException e) {
            LOG.warn("the wrapped server wrote a line that is not one JSON value ({} bytes): dropped", length);
            return;
        }
        if (message == null || message.isMissingNode()) {
            return;
        }
        if (message instanceof ObjectNode object) {
            switch (childMessage(object)) {
                case PASS -> toClient.passLine(buffer, length);
                case AMENDED -> writeToClient(object);
                case DROP -> { }
            }
        } else if (message instanceof ArrayNode batch) {
            childBatch(batch, buffer, length);
        } else {
            LOG.warn("the wrapped server wrote a JSON value that is no JSON-RPC message ({} bytes): dropped", length);
        }
    }

    /** A child line longer than the limit: never passed on (the contract, §12). */
    public void childLineTooLong(int limit) {
        LOG.warn("the wrapped server wrote a line longer than {} bytes: dropped unread", limit);
    }

    /**
     * Every client line read so far has been handled: what was passed to the child leaves now, in as
     * few writes as the lines allow (one read's burst of requests, not one write a line).
     */
    public void clientDrained() {
        toChild.flush();
    }

    /** Every line of the child's read so far has been handled: what was passed to the client leaves now. */
    public void childDrained() {
        toClient.flush();
    }

    /** Stops the member's own background work (the verdict's watcher). */
    @Override
    public void close() {
        own.close();
    }

    private void clientMessage(ObjectNode message, byte[] buffer, int length) {
        String method = message.path("method").textValue();
        if (method != null && message.has("id")) {
            OwnRequest ownRequest = OwnRequest.of(method, message.get("params"), fleet, amendments);
            String key = JsonRpcIds.key(message.get("id"));
            if (ownRequest != null) {
                if (key == null) {
                    replyError(NullNode.instance, -32600, "Invalid Request: id must be a string or an integer");
                } else {
                    toChild.flush(); // answering may wait for a free slot: what went before leaves first
                    own.answer(ownRequest, message.get("id"), key, message.get("params"));
                }
                return;
            }
            if (key != null && !remember(key, method, message.get("id"))) {
                return;
            }
        } else if ("notifications/cancelled".equals(method)
                && own.isOwn(JsonRpcIds.key(message.path("params").get("requestId")))) {
            return; // the child never saw that request
        }
        toChild.passLine(buffer, length);
    }

    private void clientBatch(ArrayNode batch, byte[] buffer, int length) {
        for (JsonNode element : batch) {
            String method = element.path("method").textValue();
            if (method != null && element.has("id")
                    && OwnRequest.of(method, element.get("params"), fleet, amendments) != null) {
                replyError(NullNode.instance, -32600, "Invalid Request: a batch may not hold a request the fleet "
                        + "answers itself (" + method + "); send it on a line of its own");
                return;
            }
        }
        for (JsonNode element : batch) {
            String method = element.path("method").textValue();
            String key = JsonRpcIds.key(element.get("id"));
            if (method != null && key != null && !remember(key, method, element.get("id"))) {
                return;
            }
        }
        toChild.passLine(buffer, length);
    }

    /** Remembers a forwarded request; false (and answered) when too many already wait for the child. */
    private boolean remember(String key, String method, JsonNode id) {
        if (forwarded.size() >= MAX_FORWARDED && !forwarded.containsKey(key)) {
            replyError(id, -32600, "Invalid Request: " + MAX_FORWARDED + " requests already wait for the server's "
                    + "answers");
            return false;
        }
        forwarded.put(key, method);
        return true;
    }

    private enum Outcome { PASS, AMENDED, DROP }

    private Outcome childMessage(ObjectNode message) {
        if (message.has("method")) {
            return Outcome.PASS; // the child's own request or notification, for the client
        }
        if (!message.has("result") && !message.has("error")) {
            LOG.warn("the wrapped server wrote an object that is no JSON-RPC message: dropped");
            return Outcome.DROP;
        }
        String key = JsonRpcIds.key(message.get("id"));
        String method = key == null ? null : forwarded.remove(key);
        if (method == null) {
            LOG.warn("the wrapped server answered id {}, which names no request of the client's waiting for it: "
                    + "dropped", message.get("id"));
            return Outcome.DROP;
        }
        boolean amended = switch (method) {
            case "initialize", "server/discover" -> amendments.capabilities(message);
            case "tools/list" -> amendments.toolsPage(message);
            case "resources/list" -> amendments.resourcesPage(message);
            default -> false;
        };
        return amended ? Outcome.AMENDED : Outcome.PASS;
    }

    private void childBatch(ArrayNode batch, byte[] buffer, int length) {
        ArrayNode kept = json.createArrayNode();
        boolean changed = false;
        for (JsonNode element : batch) {
            Outcome outcome = element instanceof ObjectNode object ? childMessage(object) : Outcome.DROP;
            if (outcome == Outcome.DROP) {
                changed = true;
            } else {
                changed |= outcome == Outcome.AMENDED;
                kept.add(element);
            }
        }
        if (!changed) {
            toClient.passLine(buffer, length);
        } else if (!kept.isEmpty()) {
            writeToClient(kept);
        }
    }

    private void replyError(JsonNode id, int code, String message) {
        LOG.warn("a client line answered with error {}: {}", code, message);
        ObjectNode response = json.createObjectNode();
        response.put("jsonrpc", "2.0");
        response.set("id", id);
        response.putObject("error").put("code", code).put("message", message);
        writeToClient(response);
    }

    private void writeToClient(JsonNode message) {
        try {
            toClient.writeLine(json.writeValueAsBytes(message));
        } catch (java.io.IOException e) {
            LOG.warn("could not encode a message for the client: {}", e.toString());
        }
    }
}
