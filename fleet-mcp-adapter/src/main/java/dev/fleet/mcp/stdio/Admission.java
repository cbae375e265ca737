package dev.fleet.mcp.stdio;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.Objects;

/**
 * What {@link JsonRpcGate} made of one line: a message for the SDK's 2025 session, or a line it
 * handled itself. Said outright, so no caller reads "handled" into a null.
 */
sealed interface Admission {

    /** The message to hand to the SDK's session, made from the gate's one parse of the line. */
    record Passed(McpSchema.JSONRPCMessage message) implements Admission {
        public Passed {
            Objects.requireNonNull(message, "message");
        }
    }

    /** A line the session never sees. */
    enum Handled implements Admission {
        /** Answered here (a refusal, an early {@code ping}) or by the 2026-07-28 era's server. */
        ANSWERED,
        /** Answered by no one, as JSON-RPC wants for a notification or a response: ignored, or acted on here. */
        UNANSWERED
    }
}
