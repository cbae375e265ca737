package dev.fleet.mcp.relay;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fleet.mcp.FleetAnswers;
import dev.fleet.mcp.jsonrpc.JsonRpcError;
import dev.fleet.mcp.jsonrpc.JsonRpcId;
import dev.fleet.mcp.modern.ModernEra;
import dev.fleet.mcp.relay.JsonRpcLine.Message;
import dev.fleet.mcp.relay.JsonRpcLine.Scan;
import dev.fleet.mcp.stdio.LineOutput;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The relay between an MCP client and the member's own server (the child), one line at a time in
 * each direction, each line read once in one streaming pass ({@link JsonRpcLine}), never made a tree
 * to be passed on (the contract, §12 and §12.1). Every message passes unchanged, byte for byte,
 * except the amendments of §12: the child's capabilities and last list pages, spliced into its bytes
 * ({@link Amendments}), the requests this member answers itself ({@link OwnRequest},
 * {@link OwnAnswers}), and {@code notifications/cancelled} for those. In both protocol eras (§13): the
 * member's own answers take the era of the request's {@code _meta} ({@code ModernEra.claims}); a list
 * the child does not know (-32601) is answered by the member; a listen the child acknowledged for the
 * verdict is told of its changes ({@link ChildListens}).
 *
 * <p>What no message may get around: a response from the child goes out only when its id is that
 * of a request the client sent and the relay forwarded, not yet answered or cancelled (the child
 * never answers for the fleet); a child line that is not exactly one well-formed JSON-RPC message is
 * dropped; a client line with a duplicate key in any object is refused (the child might read another
 * {@code name} than the relay did), and so is a batch holding a request the member answers itself.
 * A refused request is answered with its own id wherever that id can be read.
 *
 * <p>One thread calls {@link #fromClient} and then {@link #clientDrained} once what it read is
 * handled, another {@link #fromChild} and {@link #childDrained}: lines passed on are flushed then;
 * each direction keeps its order, and the member's own answers go out when ready.
 */
public final class Relay implements AutoCloseable {

    /** Requests forwarded to the child and not yet answered nor cancelled, at most: a bound on what the relay remembers. */
    static final int MAX_FORWARDED = 4096;

    private static final Logger LOG = LoggerFactory.getLogger(Relay.class);

    /** Writes replies, and reads the params of a request the member answers itself (rare: never a passed line). */
    private final ObjectMapper json = JsonMapper.builder(JsonRpcLine.STRICT.copy())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .build();
    private final LineOutput toClient;
    private final LineOutput toChild;
    private final FleetAnswers fleet;
    private final Amendments amendments;
    private final OwnAnswers own;
    private final WaitingRequests forwarded = new WaitingRequests();
    private final ChildListens listens = new ChildListens(forwarded);
    private final ChildLines childLines;

    Relay(FleetAnswers fleet, LineOutput toClient, LineOutput toChild) {
        this.fleet = Objects.requireNonNull(fleet, "fleet");
        this.toClient = Objects.requireNonNull(toClient, "toClient");
        this.toChild = Objects.requireNonNull(toChild, "toChild");
        ArrayNode tools = json.createArrayNode();
        fleet.tools().forEach(tool -> tools.add(fleet.mapper().convertValue(tool, JsonNode.class)));
        this.amendments = new Amendments(tools, fleet.mapper().convertValue(fleet.verdictResource(), JsonNode.class));
        this.own = new OwnAnswers(fleet, amendments, listens, this::writeToClient);
        this.childLines = new ChildLines(forwarded, amendments, toClient, listens,
                (request, id, modern) -> own.answer(request, id, null, modern), own::listening);
    }

    /** One line from the client, without its terminator. */
    public void fromClient(byte[] buffer, int length) {
        Scan scan = JsonRpcLine.read(buffer, length);
        switch (scan.shape()) {
            case BLANK -> { } // a blank line is no message at all
            case OBJECT -> clientMessage(scan.message(), buffer, length);
            case BATCH -> clientBatch(scan.messages(), buffer, length);
            case NOT_AN_OBJECT -> replyError(JsonRpcId.NONE, -32600, "Invalid Request: a JSON-RPC message is an object");
            case DUPLICATE_KEY -> replyError(JsonRpcLine.readableId(buffer, length), -32600,
                    "Invalid Request: an object holds the same key twice");
            case TOO_DEEP -> replyError(JsonRpcLine.readableId(buffer, length), -32600,
                    "Invalid Request: nested deeper than " + JsonRpcLine.MAX_DEPTH + " levels");
            case NOT_JSON -> replyError(JsonRpcLine.readableId(buffer, length), -32700, "Parse error: not one JSON value");
        }
    }

    /** A client line longer than the limit: discarded unread, and answered once (the contract, §7). */
    public void clientLineTooLong(int limit) {
        replyError(JsonRpcId.NONE, -32600, "Invalid Request: line longer than " + limit + " bytes, discarded unread");
    }

    /** One line from the child's stdout, without its terminator. */
    public void fromChild(byte[] buffer, int length) {
        childLines.line(buffer, length);
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

    private void clientMessage(Message message, byte[] buffer, int length) {
        OwnRequest ownRequest = OwnRequest.of(message.method(), message.paramsName(), message.paramsUri(), fleet,
                amendments);
        if (message.isRequest()) {
            String invalid = invalidRequest(message);
            if (invalid != null) {
                replyError(message.id(), -32600, invalid);
                return;
            }
            if (ownRequest != null) {
                toChild.flush(); // answering may wait for a free slot: what went before leaves first
                JsonNode request = tree(buffer, length);
                own.answer(ownRequest, message.id(), request.get("params"),
                        ModernEra.claims(request));
                return;
            }
            if (!forwarded.hasRoomFor(forwarded.waits(message.id().key()) ? 0 : 1)) {
                replyError(message.id(), -32600, "Invalid Request: " + MAX_FORWARDED + " requests already wait for "
                        + "the server's answers");
                return;
            }
            forwarded.add(message.id().key(), message.method(), claimsModernEra(message, buffer, length));
        } else if (message.isNotification()) {
            if ("notifications/cancelled".equals(message.method()) && cancelled(message.requestId())) {
                return; // the child never saw that request
            }
            if (ownRequest != null && ownRequest.namesTheFleet()) {
                LOG.warn("the client sent {} for the fleet's own {} as a notification: dropped, it never reaches the "
                        + "wrapped server", message.method(), message.paramsUri() != null ? message.paramsUri()
                        : message.paramsName());
                return;
            }
        }
        toChild.passLine(buffer, length);
    }

    /** Why a request may not be forwarded nor answered (MCP: an id is a string or a number), or null. */
    private static String invalidRequest(Message request) {
        if (!request.id().legal()) {
            return "Invalid Request: an id is a string or a number";
        }
        return request.method() == null ? "Invalid Request: a method is a string" : null;
    }

    /**
     * A cancellation: a request the member answers itself is no business of the child's (true); one
     * forwarded no longer waits, so a late answer to it is dropped and its place is free (the contract,
     * §12.1), and the cancellation is forwarded (false).
     */
    private boolean cancelled(JsonRpcId requestId) {
        if (requestId == null || !requestId.legal()) {
            return false;
        }
        if (own.isOwn(requestId.key())) {
            return true;
        }
        forwarded.cancel(requestId.key());
        listens.ended(requestId.key()); // a listen is ended by its cancellation (2026-07-28)
        return false;
    }

    private void clientBatch(List<Message> batch, byte[] buffer, int length) {
        int added = 0;
        for (Message message : batch) {
            OwnRequest ownRequest = OwnRequest.of(message.method(), message.paramsName(), message.paramsUri(), fleet,
                    amendments);
            if (ownRequest != null && (message.isRequest() || ownRequest.namesTheFleet())) {
                refuseBatch(batch, "Invalid Request: a batch may not hold a request the fleet answers itself ("
                        + message.method() + "); send it on a line of its own");
                return;
            }
            String invalid = message.isRequest() ? invalidRequest(message) : null;
            if (invalid != null) {
                refuseBatch(batch, invalid);
                return;
            }
            added += message.isRequest() && !forwarded.waits(message.id().key()) ? 1 : 0;
        }
        if (!forwarded.hasRoomFor(added)) {
            refuseBatch(batch, "Invalid Request: " + MAX_FORWARDED + " requests already wait for the server's answers");
            return;
        }
        for (Message message : batch) {
            if (message.isRequest()) {
                forwarded.add(message.id().key(), message.method(), false); // a batch is no 2026-07-28 message
            } else if (message.isNotification() && "notifications/cancelled".equals(message.method())) {
                cancelled(message.requestId());
            }
        }
        toChild.passLine(buffer, length);
    }

    private void refuseBatch(List<Message> batch, String reason) {
        ArrayNode replies = json.createArrayNode();
        batch.stream().filter(Message::isRequest).filter(request -> request.id().legal())
                .forEach(request -> replies.add(error(request.id(), -32600, reason)));
        LOG.warn("a client batch answered with error -32600: {}", reason);
        writeToClient(replies.isEmpty() ? error(JsonRpcId.NONE, -32600, reason) : replies);
    }

    private void replyError(JsonRpcId id, int code, String message) {
        LOG.warn("a client line answered with error {}: {}", code, message);
        writeToClient(error(id, code, message));
    }

    private static ObjectNode error(JsonRpcId id, int code, String message) {
        return new JsonRpcError(code, message).node(id);
    }

    /**
     * Whether a request the relay forwards claims the 2026-07-28 era, where that matters: only a list the
     * fleet answers in the child's stead if the child does not know it (§13), so only those few small
     * lines are read again, as a tree.
     */
    private boolean claimsModernEra(Message request, byte[] buffer, int length) {
        return WaitingRequests.answeredInTheChildsStead(request.method()) && ModernEra.claims(tree(buffer, length));
    }

    /** A request the member reads further, as a tree (the line is known to be one object). */
    private JsonNode tree(byte[] buffer, int length) {
        try {
            return json.readTree(buffer, 0, length);
        } catch (IOException e) {
            throw new IllegalStateException("a line read once could not be read again", e);
        }
    }

    private void writeToClient(JsonNode message) {
        try {
            toClient.writeLine(json.writeValueAsBytes(message));
        } catch (IOException e) {
            LOG.warn("could not encode a message for the client: {}", e.toString());
        }
    }
}
