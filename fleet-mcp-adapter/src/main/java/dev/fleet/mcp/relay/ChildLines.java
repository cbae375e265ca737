package dev.fleet.mcp.relay;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.core.JsonToken;
import dev.fleet.mcp.jsonrpc.JsonRpcId;
import dev.fleet.mcp.jsonrpc.JsonRpcLine;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Invalid;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Notification;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Request;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Response;
import dev.fleet.mcp.jsonrpc.JsonRpcReader;
import dev.fleet.mcp.jsonrpc.JsonRpcReader.DuplicateKeys;
import dev.fleet.mcp.stdio.BoundedLines;
import dev.fleet.mcp.stdio.LineOutput;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the child writes, on its way to the client (the contract, §12, §12.1 and §13): a line passes as
 * the bytes it came in, but for the amendments to the answers of {@code initialize} (or
 * {@code server/discover}) and the list pages ({@link Amendments}), and a list the child does not know
 * (-32601, method not found), which the fleet answers in its stead with its own entries
 * ({@link InTheChildsStead}). Dropped, with one warning line each: a line that is not JSON, and a
 * message that is not exactly one well-formed JSON-RPC message or that answers no request waiting
 * for the child (the child never answers for the fleet); in a batch, the same for each element. A
 * listen's acknowledgement passes unchanged, and tells {@link ChildListens} whether the child honours
 * the verdict on it.
 */
final class ChildLines {

    /** The fleet's answer to a request the child said it does not know. */
    @FunctionalInterface
    interface InTheChildsStead {
        void answer(OwnRequest request, JsonRpcId id, boolean modern);
    }

    /**
     * The reader of the child's lines, which pass as they came: the last of a key given twice counts, as the
     * client's reader will have it, but a message holding its {@code id}, {@code method}, {@code result} or
     * {@code error} twice is dropped (a client reading the first could meet another id than fleet routed by).
     */
    static final JsonRpcReader READER = new JsonRpcReader(BoundedLines.MAX_LINE_BYTES, DuplicateKeys.ONCE_WHERE_ROUTED);

    private static final Logger LOG = LoggerFactory.getLogger(ChildLines.class);
    /** What {@link #message} returns for a message that passes as it came. */
    private static final byte[] PASSED = new byte[0];

    private final WaitingRequests waiting;
    private final Amendments amendments;
    private final LineOutput toClient;
    private final ChildListens listens;
    private final InTheChildsStead fleet;
    private final Runnable onListen;

    /** @param onListen runs when a listen of the client's came to honour the verdict */
    ChildLines(WaitingRequests waiting, Amendments amendments, LineOutput toClient, ChildListens listens,
            InTheChildsStead fleet, Runnable onListen) {
        this.waiting = waiting;
        this.amendments = amendments;
        this.toClient = toClient;
        this.listens = listens;
        this.fleet = fleet;
        this.onListen = onListen;
    }

    /** One line of the child's, without its terminator. */
    void line(byte[] buffer, int length) {
        JsonRpcLine line = READER.read(buffer, length);
        if (line.blank()) {
            return;
        }
        if (line.batch()) {
            batch(line, buffer, length);
        } else if (line.message() instanceof Invalid invalid && invalid.wholeLine()) {
            LOG.warn("the wrapped server wrote a line that is not one JSON-RPC message ({}, {} bytes): dropped",
                    invalid.fault().toString().toLowerCase(Locale.ROOT).replace('_', ' '), length);
        } else {
            byte[] relayed = message(line.message(), buffer);
            if (relayed == PASSED) {
                toClient.passLine(buffer, length);
            } else if (relayed != null) {
                toClient.passLine(relayed, relayed.length);
            }
        }
    }

    /**
     * One message: null when dropped, {@link #PASSED} when it passes as it came, else its amended
     * bytes. A request has {@code method} and a string or number {@code id} and neither {@code result}
     * nor {@code error}; a notification has {@code method} and no {@code id}; a response has
     * {@code id}, exactly one of {@code result} and {@code error}, and no {@code method}.
     */
    private byte[] message(JsonRpcMessage message, byte[] line) {
        if ((message instanceof Request || message instanceof Notification) && !message.parts().answers()) {
            if (message instanceof Notification && ChildListens.ACKNOWLEDGED.equals(message.method())
                    && listens.acknowledged(line, message.start(), message.end())) {
                onListen.run();
            }
            return PASSED; // the child's own request or notification, for the client
        }
        if (!(message instanceof Response)) {
            LOG.warn("the wrapped server wrote {} bytes that are not exactly one well-formed JSON-RPC message: dropped",
                    message.end() - message.start());
            return null;
        }
        WaitingRequests.Waiting request = message.id().legal() ? waiting.answered(message.id().key()) : null;
        if (request == null) {
            LOG.warn("the wrapped server answered id {}, which names no request of the client's waiting for it: "
                    + "dropped", shown(message.id()));
            return null;
        }
        // Nothing waits under this id any more, so no listen does either: the child ended it (or refused it). A
        // request under an open listen's id never took its place: the relay refuses one under a waiting id.
        listens.ended(message.id().key());
        if (message.parts().hasError() && WaitingRequests.answeredInTheChildsStead(request.method())
                && methodNotFound(line, message)) {
            fleet.answer(OwnRequest.listed(request.method()), message.id(), request.modern());
            return null; // the fleet's own answer goes out instead, when ready
        }
        byte[] amended = switch (request.method()) {
            case "initialize", "server/discover" -> amendments.capabilities(line, message.start(), message.end());
            case "tools/list" -> amendments.toolsPage(line, message.start(), message.end());
            case "resources/list" -> amendments.resourcesPage(line, message.start(), message.end());
            default -> null;
        };
        return amended == null ? PASSED : amended;
    }

    /** Whether the child's error response in {@code line} is -32601, method not found. */
    private static boolean methodNotFound(byte[] line, JsonRpcMessage message) {
        Span error = Span.read(line, message.start(), message.end(), 2).member("error");
        Span code = error == null ? null : error.member("code");
        return code != null && code.token() == JsonToken.VALUE_NUMBER_INT
                && "-32601".equals(new String(line, code.start(), code.end() - code.start(), UTF_8));
    }

    /** A batch: passed as it came unless a message in it is dropped or amended, then spliced. */
    private void batch(JsonRpcLine line, byte[] buffer, int length) {
        List<JsonRpcMessage> batch = line.messages();
        if (batch.isEmpty()) {
            LOG.warn("the wrapped server wrote an empty batch, which is no JSON-RPC message: dropped");
            return;
        }
        Splice splice = new Splice();
        List<Span> spans = batch.stream()
                .map(message -> new Span(null, message.start(), message.end(), null, null, null)).toList();
        boolean[] cut = new boolean[batch.size()];
        boolean kept = false;
        for (int i = 0; i < cut.length; i++) {
            byte[] relayed = message(batch.get(i), buffer);
            cut[i] = relayed == null;
            kept |= !cut[i];
            if (relayed != null && relayed != PASSED) {
                splice.replace(spans.get(i), relayed);
            }
        }
        splice.cutAndAppend(line.close(), spans, cut, List.of());
        if (splice.isEmpty()) {
            toClient.passLine(buffer, length);
        } else if (kept) {
            byte[] relayed = splice.apply(buffer, 0, length);
            toClient.passLine(relayed, relayed.length);
        }
    }

    /** An id as a warning shows it: a long one cut short. */
    private static String shown(JsonRpcId id) {
        return id.json().length() <= 80 ? id.json() : id.json().substring(0, 80) + "…";
    }
}
