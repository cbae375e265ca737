package dev.fleet.mcp.relay;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.quicktheories.core.Gen;
import org.quicktheories.core.RandomnessSource;
import org.quicktheories.impl.Constraint;

/**
 * A random MCP conversation through a relay, as a client and a child would hold it: an
 * {@code initialize} with random capabilities, then requests, notifications and responses in both
 * directions, interleaved at random, with random ids of every form MCP allows (strings, some alike
 * in print to numbers; integers, negative, fractions, beyond a long, with exponents; answered in
 * another spelling of the same value), numbers of any size and precision, cursors, unicode, key
 * orders and whitespace, so that only a relay passing bytes unchanged keeps them, and child lines of
 * every malformed shape. Each line says which side sends it and what the relay may do to it: where
 * the relay amends a line, {@code expected} is the text it must send, byte for byte ({@code "\0"}
 * where the fleet's own list entries go).
 */
record Conversation(List<Line> lines, boolean childHasTools, boolean childHasResources) {

    /** Who sends a line, and what the contract lets the relay do with it. */
    enum Kind {
        /** passes byte for byte */
        VERBATIM,
        /** the child's initialize result: gains capabilities */
        CAPABILITIES,
        /** a child's tools/list page: a child tool of a fleet name left out; the last gains the fleet tools */
        TOOLS_PAGE,
        /** a child's resources/list page: likewise, with the verdict resource */
        RESOURCES_PAGE,
        /** a child line that is not exactly one well-formed JSON-RPC message, or answers nothing waiting */
        DROPPED,
        /** a request the member answers itself: never reaches the child */
        OWN_REQUEST,
        /** a cancellation of such a request: never reaches the child */
        OWN_CANCELLATION
    }

    record Line(boolean fromClient, String text, Kind kind, String ownId, String expected) {
    }

    static Gen<Conversation> conversations() {
        return ((Gen<Conversation>) in -> new ConversationBuilder(in).build())
                .describedAs(conversation -> conversation.lines().size() + " lines: " + conversation.lines());
    }
}
