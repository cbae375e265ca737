package dev.fleet.mcp.jsonrpc;

import java.util.List;

/**
 * One line (or HTTP body) as {@link JsonRpcReader} read it: no message (blank), one, or a batch's.
 * A line that is no JSON-RPC at all is one {@link JsonRpcMessage.Invalid} whose fault says so.
 *
 * @param messages the line's messages, in order
 * @param batch whether the line is a batch (a JSON array), even one of one message or none
 * @param close where a batch's closing bracket is, -1 for a line that is no batch
 */
public record JsonRpcLine(List<JsonRpcMessage> messages, boolean batch, int close) {

    static final JsonRpcLine BLANK = new JsonRpcLine(List.of(), false, -1);

    /** Whether the line holds nothing at all (whitespace only). */
    public boolean blank() {
        return messages.isEmpty() && !batch;
    }

    /**
     * The ids a refused batch is answered with, one error for each (JSON-RPC answers a batch with an array):
     * its requests' ids, and its would-be requests' whose id MCP allows, so no client waits on one of them.
     */
    public static List<JsonRpcId> requestIds(List<JsonRpcMessage> batch) {
        return batch.stream().filter(message -> message instanceof JsonRpcMessage.Request
                        || message instanceof JsonRpcMessage.Invalid invalid && invalid.request())
                .map(JsonRpcMessage::id).filter(id -> id != null && id.legal()).toList();
    }

    /** The one message of a line that is no batch. */
    public JsonRpcMessage message() {
        return messages.get(0);
    }
}
