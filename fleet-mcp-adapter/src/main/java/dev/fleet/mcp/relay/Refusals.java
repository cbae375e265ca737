package dev.fleet.mcp.relay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.fleet.mcp.jsonrpc.JsonRpcError;
import dev.fleet.mcp.jsonrpc.JsonRpcId;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Invalid;
import dev.fleet.mcp.jsonrpc.JsonRpcReader;
import dev.fleet.mcp.stdio.LineOutput;
import java.io.IOException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the relay answers the client itself when it refuses a line (the contract, §12 and §12.1): a
 * JSON-RPC error with the refused request's own id wherever that id can be read, one for each request
 * of a refused batch, {@code id: null} only where none can be. Each refusal is logged in one line.
 */
final class Refusals {

    private static final Logger LOG = LoggerFactory.getLogger(Refusals.class);

    private final ObjectMapper json;
    private final LineOutput toClient;

    Refusals(ObjectMapper json, LineOutput toClient) {
        this.json = json;
        this.toClient = toClient;
    }

    /** A line that is no JSON-RPC message at all, answered with the ids it names where they can be read. */
    void line(Invalid line, byte[] buffer, int length) {
        int invalid = JsonRpcError.INVALID_REQUEST;
        switch (line.fault()) {
            case LINE_NOT_AN_OBJECT -> error(JsonRpcId.NONE, invalid,
                    "Invalid Request: a JSON-RPC message is an object");
            case BATCH_TOO_LARGE -> error(JsonRpcId.NONE, invalid, "Invalid Request: " + line.detail() + " (read no "
                    + "further, so answered once)");
            case DUPLICATE_KEY -> requests(line, buffer, length, invalid,
                    "Invalid Request: an object holds the same key twice");
            case TOO_DEEP -> requests(line, buffer, length, invalid, "Invalid Request: nested deeper than "
                    + JsonRpcReader.MAX_DEPTH + " levels");
            default -> requests(line, buffer, length, JsonRpcError.PARSE_ERROR, "Parse error: not one JSON value");
        }
    }

    /** Refuses one message: {@code code} with {@code id}. */
    void error(JsonRpcId id, int code, String message) {
        LOG.warn("a client line answered with error {}: {}", code, message);
        write(new JsonRpcError(code, message).node(id));
    }

    /** Refuses a batch: -32600 for each of {@code ids} (its requests' ids), or once with no id when it has none. */
    void batch(List<JsonRpcId> ids, String reason) {
        batch(ids, JsonRpcError.INVALID_REQUEST, reason);
    }

    private void batch(List<JsonRpcId> ids, int code, String reason) {
        LOG.warn("a client batch answered with error {}: {}", code, reason);
        if (ids.isEmpty()) {
            write(new JsonRpcError(code, reason).node(JsonRpcId.NONE));
            return;
        }
        ArrayNode replies = json.createArrayNode();
        ids.forEach(id -> replies.add(new JsonRpcError(code, reason).node(id)));
        write(replies);
    }

    /** Writes one message of the member's own to the client. */
    void write(JsonNode message) {
        try {
            toClient.writeLine(json.writeValueAsBytes(message));
        } catch (IOException e) {
            LOG.warn("could not encode a message for the client: {}", e.toString());
        }
    }

    /** A line refused whole: a batch's requests each answered with their ids, or the line's own id. */
    private void requests(Invalid line, byte[] buffer, int length, int code, String reason) {
        List<JsonRpcId> ids = Relay.READER.readableRequestIds(buffer, length);
        if (ids.isEmpty()) {
            error(line.id(), code, reason);
        } else {
            batch(ids, code, reason);
        }
    }
}
