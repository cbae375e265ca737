package dev.fleet.mcp.relay;

import dev.fleet.mcp.jsonrpc.JsonRpcId;
import dev.fleet.mcp.jsonrpc.JsonRpcMessage.Request;
import dev.fleet.mcp.modern.ModernEra;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The client's requests forwarded to the child and neither answered nor cancelled, by id key
 * ({@link JsonRpcId#key()}): the only ones the child may answer (it never answers for the fleet), at most
 * {@value Relay#MAX_FORWARDED}. A cancelled request no longer waits (the contract, §12.1), so a session of days with
 * many cancellations keeps its room, and a late answer to it is dropped like any answer that names no
 * waiting request. The client's pump adds and cancels, the child's takes answers: a concurrent map.
 */
final class WaitingRequests {

    /**
     * What the relay keeps of a waiting request: its method where the answer to it is amended, answered
     * in the child's stead or followed ("" for any other), and whether it claimed the 2026-07-28 era
     * (known only where the fleet may answer it itself, §13).
     */
    record Waiting(String method, boolean modern) {
        static final Waiting OTHER = new Waiting("", false);
    }

    private final Map<String, Waiting> waiting = new ConcurrentHashMap<>();

    /** Whether {@code added} more requests may wait now. */
    boolean hasRoomFor(int added) {
        return waiting.size() + added <= Relay.MAX_FORWARDED;
    }

    /** Whether a request of id key {@code key} waits. */
    boolean waits(String key) {
        return waiting.containsKey(key);
    }

    /**
     * {@code request} forwarded, with the era it claimed where that matters: only a list the fleet answers in the
     * child's stead if the child does not know it (§13).
     */
    void add(Request request) {
        String method = request.method();
        add(request.id().key(), method, answeredInTheChildsStead(method) && ModernEra.claims(request.parts().params()));
    }

    /** A request of {@code method} forwarded, in the era it claimed. */
    void add(String key, String method, boolean modern) {
        String kept = kept(method);
        waiting.put(key, kept.isEmpty() ? Waiting.OTHER : new Waiting(kept, modern));
    }

    /** The client cancelled the request of id key {@code key}: it no longer waits. */
    void cancel(String key) {
        waiting.remove(key);
    }

    /** The child answered {@code key}: what the relay kept of that request, or null when none waits. */
    Waiting answered(String key) {
        return waiting.remove(key);
    }

    /** The request of id key {@code key} while it waits, or null: a listen stays waiting while it is open. */
    Waiting peek(String key) {
        return waiting.get(key);
    }

    /**
     * Whether the relay needs to know the era of a request of {@code method} it forwards: the fleet
     * answers it itself where the child does not know the method (§13).
     */
    static boolean answeredInTheChildsStead(String method) {
        return switch (method) {
            case "tools/list", "resources/list", "resources/templates/list" -> true;
            default -> false;
        };
    }

    /** Only the methods whose answers matter are kept: a method name may be megabytes long. */
    private static String kept(String method) {
        return switch (method) {
            case "initialize", "server/discover", "tools/list", "resources/list", "resources/templates/list",
                    "subscriptions/listen" -> method;
            default -> "";
        };
    }
}
