package dev.fleet.mcp.relay;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.fleet.domain.Failures;
import dev.fleet.mcp.FleetAnswers;
import dev.fleet.mcp.jsonrpc.JsonRpcError;
import dev.fleet.mcp.jsonrpc.JsonRpcId;
import dev.fleet.mcp.jsonrpc.JsonRpcLine;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Invalid;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Notification;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Params;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Request;
import dev.fleet.mcp.jsonrpc.JsonRpcReader;
import dev.fleet.mcp.jsonrpc.JsonRpcReader.DuplicateKeys;
import dev.fleet.mcp.modern.ModernEra;
import dev.fleet.mcp.stdio.BoundedLines;
import dev.fleet.mcp.stdio.LineOutput;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The relay between an MCP client and the member's own server (the child), one line at a time in
 * each direction, each line read once in one streaming pass ({@link JsonRpcReader}), never made a tree
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

    /** The reader of the client's lines: strict, as a duplicate key might route one way here and another in the child. */
    static final JsonRpcReader READER = new JsonRpcReader(BoundedLines.MAX_LINE_BYTES, DuplicateKeys.REFUSED);

    /**
     * Why a request under the id of one waiting for the child (an open listen too) is refused: forwarded, the child's two
     * answers would meet one waiting request, one dropped and the other amended as the second request's method says.
     */
    private static final String ID_WAITS = "another request under this id still waits for its answer";
    private static final Logger LOG = LoggerFactory.getLogger(Relay.class);

    /** Writes replies, and reads the params of a request the member answers itself (rare: never a passed line's). */
    private final ObjectMapper json = JsonMapper.builder(READER.factory().copy())
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
    private final Refusals refusals;

    Relay(FleetAnswers fleet, LineOutput toClient, LineOutput toChild) {
        this.fleet = Objects.requireNonNull(fleet, "fleet");
        this.toClient = Objects.requireNonNull(toClient, "toClient");
        this.toChild = Objects.requireNonNull(toChild, "toChild");
        this.refusals = new Refusals(json, toClient);
        ArrayNode tools = json.createArrayNode();
        fleet.tools().forEach(tool -> tools.add(fleet.mapper().convertValue(tool, JsonNode.class)));
        this.amendments = new Amendments(tools, fleet.mapper().convertValue(fleet.verdictResource(), JsonNode.class));
        this.own = new OwnAnswers(fleet, amendments, listens, refusals::write);
        this.childLines = new ChildLines(forwarded, amendments, toClient, listens,
                (request, id, modern) -> own.answer(request, id, null, modern), own::listening);
    }

    /**
     * One line from the client, without its terminator. Should handling it fail all the same, each of
     * its requests is answered with -32603: no client waits for ever on a line the relay dropped.
     */
    public void fromClient(byte[] buffer, int length) {
        JsonRpcLine line = READER.read(buffer, length);
        try {
            if (line.blank()) {
                return; // a blank line is no message at all
            }
            if (line.batch()) {
                clientBatch(line, buffer, length);
            } else if (line.message() instanceof Invalid invalid && invalid.wholeLine()) {
                refusals.line(invalid, buffer, length);
            } else {
                clientMessage(line.message(), buffer, length);
            }
        } catch (RuntimeException e) {
            LOG.error("relaying a client line failed; its requests are answered with -32603", e);
            String why = "Internal error: " + Failures.withKind(e);
            line.messages().stream().filter(Request.class::isInstance).map(JsonRpcMessage::id)
                    .forEach(id -> refusals.error(id, JsonRpcError.INTERNAL_ERROR, why));
        }
    }

    /** A client line longer than the limit: discarded unread, and answered once (the contract, §7). */
    public void clientLineTooLong(int limit) {
        refusals.error(JsonRpcId.NONE, -32600, "Invalid Request: line longer than " + limit + " bytes, discarded unread");
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

    private void clientMessage(JsonRpcMessage message, byte[] buffer, int length) {
        if (message.answersToo()) {
            refusals.error(message.id(), -32600, "Invalid Request: " + JsonRpcMessage.ANSWERS_TOO);
            return;
        }
        OwnRequest ownRequest = own(message);
        if (message instanceof Request request) {
            // One the fleet answers itself too: its answer and the child's would reach the client under one id.
            String refused = forwarded.waits(request.id().key()) ? ID_WAITS : null;
            if (ownRequest != null && refused == null) {
                toChild.flush(); // answering may wait for a free slot: what went before leaves first
                answerOwn(ownRequest, request, buffer);
                return;
            }
            refused = refused != null || forwarded.hasRoomFor(1) ? refused
                    : MAX_FORWARDED + " requests already wait for the server's answers";
            if (refused != null) {
                refusals.error(request.id(), -32600, "Invalid Request: " + refused);
                return;
            }
            forwarded.add(request);
        } else if (message instanceof Notification notification) {
            Params params = notification.parts().params();
            if ("notifications/cancelled".equals(notification.method())
                    && cancelled(params == null ? null : params.requestId())) {
                return; // the child never saw that request
            }
            if (ownRequest != null && ownRequest.namesTheFleet()) {
                LOG.warn("the client sent {} for the fleet's own {} as a notification: dropped, it never reaches the "
                        + "wrapped server", notification.method(), params.uri() != null ? params.uri() : params.name());
                return;
            }
        } else if (message instanceof Invalid invalid && invalid.request()) {
            refusals.error(invalid.id(), -32600, "Invalid Request: " + invalid.detail());
            return;
        }
        toChild.passLine(buffer, length); // a response, or what names no request: the child's to judge
    }

    /**
     * A request the member answers itself. Its params, read once already, are read again as a tree; a
     * number no decimal holds ({@code 1e9999999999}, whose exponent overflows) is refused with -32602.
     */
    private void answerOwn(OwnRequest ownRequest, Request request, byte[] buffer) {
        JsonNode params;
        try {
            params = params(buffer, request.parts().params());
        } catch (NumberFormatException | IOException unreadable) {
            // Not the parser's words: they name this member's Java classes, no client's concern.
            refusals.error(request.id(), JsonRpcError.INVALID_PARAMS, "Invalid params: "
                    + (unreadable instanceof NumberFormatException ? "a number in them is out of range"
                            : "a value in them is beyond this member's bounds for JSON"));
            return;
        }
        own.answer(ownRequest, request.id(), params, ModernEra.claims(request.parts().params()));
    }

    /** The request this member answers itself that {@code message} is, or null. */
    private OwnRequest own(JsonRpcMessage message) {
        Params params = message.parts().params();
        return OwnRequest.of(message.method(), params == null ? null : params.name(), params == null ? null : params.uri(),
                fleet, amendments);
    }

    /**
     * A cancellation: one of a forwarded request that waits is the child's, so that request no longer
     * waits, a late answer to it is dropped and its place is free (the contract, §12.1), and the
     * cancellation is forwarded (false); otherwise one of a request the member answers or answered itself
     * is no business of the child's (true). The waiting request comes first: an answered request's id is
     * free again, and the client may have reused a fleet call's for a request of the child's.
     */
    private boolean cancelled(JsonRpcId requestId) {
        if (requestId == null || !requestId.legal()) {
            return false;
        }
        if (!forwarded.waits(requestId.key()) && own.isOwn(requestId.key())) {
            return true;
        }
        forwarded.cancel(requestId.key());
        listens.ended(requestId.key()); // a listen is ended by its cancellation (2026-07-28)
        return false;
    }

    /**
     * A batch: refused whole when it holds a request the relay refuses or answers itself; else passed as
     * it came, less what never reaches the child (a notification naming the fleet's own tool or
     * resource, a cancellation of the member's own request), and not at all when nothing is left.
     */
    private void clientBatch(JsonRpcLine line, byte[] buffer, int length) {
        List<JsonRpcMessage> batch = line.messages();
        int added = 0;
        boolean[] cut = new boolean[batch.size()];
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < cut.length; i++) {
            JsonRpcMessage message = batch.get(i);
            String refused = refusal(message, ids);
            if (refused != null) {
                refusals.batch(JsonRpcLine.requestIds(batch), "Invalid Request: " + refused);
                return;
            }
            OwnRequest ownRequest = own(message);
            cut[i] = ownRequest != null && ownRequest.namesTheFleet();
            if (cut[i]) {
                LOG.warn("the client sent {} for the fleet's own {} as a notification in a batch: cut from it, it never "
                        + "reaches the wrapped server", message.method(), ownRequest);
            }
            added += message instanceof Request ? 1 : 0;
        }
        if (!forwarded.hasRoomFor(added)) {
            refusals.batch(JsonRpcLine.requestIds(batch), "Invalid Request: " + MAX_FORWARDED + " requests already wait for the "
                    + "server's answers");
            return;
        }
        for (int i = 0; i < cut.length; i++) {
            if (batch.get(i) instanceof Request request) {
                forwarded.add(request);
            } else if (batch.get(i) instanceof Notification notification
                    && "notifications/cancelled".equals(notification.method())) {
                Params params = notification.parts().params();
                cut[i] |= cancelled(params == null ? null : params.requestId());
            }
        }
        byte[] kept = Splice.without(line, cut, buffer, length);
        if (kept != null) {
            toChild.passLine(kept, kept == buffer ? length : kept.length);
        }
    }

    /** Why a batch holding {@code message} is refused whole, or null; {@code ids}: its requests' id keys so far. */
    private String refusal(JsonRpcMessage message, Set<String> ids) {
        if (message.answersToo()) {
            return JsonRpcMessage.ANSWERS_TOO;
        }
        if (message instanceof Request request) {
            return own(message) != null ? "a batch may not hold a request the fleet answers itself (" + message.method()
                    + "); send it on a line of its own"
                    : forwarded.waits(request.id().key()) || !ids.add(request.id().key()) ? ID_WAITS : null;
        }
        return message instanceof Invalid invalid && invalid.request() ? invalid.detail() : null;
    }

    /** The params of a request the member answers itself, as a tree: just their bytes read again; null when absent. */
    private JsonNode params(byte[] buffer, Params params) throws IOException {
        return params == null ? null : json.readTree(buffer, params.start(), params.end() - params.start());
    }
}
