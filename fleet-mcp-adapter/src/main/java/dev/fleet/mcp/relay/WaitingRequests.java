package dev.fleet.mcp.relay;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The client's requests forwarded to the child and neither answered nor cancelled, by id key
 * ({@link JsonRpcIds}): the only ones the child may answer (it never answers for the fleet), at most
 * {@value Relay#MAX_FORWARDED}. A cancelled request no longer waits (the contract, §12.1), so a session of days with
 * many cancellations keeps its room, and a late answer to it is dropped like any answer that names no
 * waiting request. The client's pump adds and cancels, the child's takes answers: a concurrent map.
 */
final class WaitingRequests {

    /** Each waiting request's method where an answer to it is amended, "" for any other. */
    private final Map<String, String> waiting = new ConcurrentHashMap<>();

    /** Whether {@code added} more requests may wait now. */
    boolean hasRoomFor(int added) {
        return waiting.size() + added <= Relay.MAX_FORWARDED;
    }

    /** Whether a request of id key {@code key} waits. */
    boolean waits(String key) {
        return waiting.containsKey(key);
    }

    /** A request of {@code method} forwarded. */
    void add(String key, String method) {
        waiting.put(key, amended(method));
    }

    /** The client cancelled the request of id key {@code key}: it no longer waits. */
    void cancel(String key) {
        waiting.remove(key);
    }

    /** The child answered {@code key}: the method whose answer it is ("" when not amended), or null when none waits. */
    String answered(String key) {
        return waiting.remove(key);
    }

    /** Only the methods whose answers are amended are kept: a method name may be megabytes long. */
    private static String amended(String method) {
        return switch (method) {
            case "initialize", "server/discover", "tools/list", "resources/list" -> method;
            default -> "";
        };
    }
}
