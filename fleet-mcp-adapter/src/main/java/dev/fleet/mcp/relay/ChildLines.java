package dev.fleet.mcp.relay;

import dev.fleet.mcp.relay.JsonRpcLine.Message;
import dev.fleet.mcp.relay.JsonRpcLine.Scan;
import dev.fleet.mcp.stdio.LineOutput;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the child writes, on its way to the client (the contract, §12 and §12.1): a line passes as
 * the bytes it came in, but for the amendments to the answers of {@code initialize} and the list
 * pages ({@link Amendments}). Dropped, with one warning line each: a line that is not JSON, and a
 * message that is not exactly one well-formed JSON-RPC message or that answers no request waiting
 * for the child (the child never answers for the fleet); in a batch, the same for each element.
 */
final class ChildLines {

    private static final Logger LOG = LoggerFactory.getLogger(ChildLines.class);
    /** What {@link #message} returns for a message that passes as it came. */
    private static final byte[] PASSED = new byte[0];

    private final WaitingRequests waiting;
    private final Amendments amendments;
    private final LineOutput toClient;

    ChildLines(WaitingRequests waiting, Amendments amendments, LineOutput toClient) {
        this.waiting = waiting;
        this.amendments = amendments;
        this.toClient = toClient;
    }

    /** One line of the child's, without its terminator. */
    void line(byte[] buffer, int length) {
        Scan scan = JsonRpcLine.read(buffer, length);
        switch (scan.shape()) {
            case BLANK -> { }
            case OBJECT -> {
                byte[] relayed = message(scan.message(), buffer);
                if (relayed == PASSED) {
                    toClient.passLine(buffer, length);
                } else if (relayed != null) {
                    toClient.passLine(relayed, relayed.length);
                }
            }
            case BATCH -> batch(scan, buffer, length);
            default -> LOG.warn("the wrapped server wrote a line that is not one JSON-RPC message ({}, {} bytes): "
                    + "dropped", scan.shape().toString().toLowerCase(Locale.ROOT).replace('_', ' '), length);
        }
    }

    /**
     * One message: null when dropped, {@link #PASSED} when it passes as it came, else its amended
     * bytes. A request has {@code method} and a string or number {@code id} and neither {@code result}
     * nor {@code error}; a notification has {@code method} and no {@code id}; a response has
     * {@code id}, exactly one of {@code result} and {@code error}, and no {@code method}.
     */
    private byte[] message(Message message, byte[] line) {
        boolean answer = message.hasResult() || message.hasError();
        boolean named = message.hasMethod() && message.method() != null && !answer;
        if (named && (message.id() == null || message.id().legal())) {
            return PASSED; // the child's own request or notification, for the client
        }
        if (!message.object() || message.hasMethod() || message.id() == null
                || message.hasResult() == message.hasError()) {
            LOG.warn("the wrapped server wrote {} bytes that are not exactly one well-formed JSON-RPC message: dropped",
                    message.end() - message.start());
            return null;
        }
        String method = message.id().legal() ? waiting.answered(message.id().key()) : null;
        if (method == null) {
            LOG.warn("the wrapped server answered id {}, which names no request of the client's waiting for it: "
                    + "dropped", shown(message.id()));
            return null;
        }
        byte[] amended = switch (method) {
            case "initialize", "server/discover" -> amendments.capabilities(line, message.start(), message.end());
            case "tools/list" -> amendments.toolsPage(line, message.start(), message.end());
            case "resources/list" -> amendments.resourcesPage(line, message.start(), message.end());
            default -> null;
        };
        return amended == null ? PASSED : amended;
    }

    /** A batch: passed as it came unless a message in it is dropped or amended, then spliced. */
    private void batch(Scan scan, byte[] buffer, int length) {
        List<Message> batch = scan.messages();
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
        splice.cutAndAppend(scan.close(), spans, cut, List.of());
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
