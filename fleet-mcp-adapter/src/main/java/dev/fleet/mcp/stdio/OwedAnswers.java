package dev.fleet.mcp.stdio;

import dev.fleet.mcp.jsonrpc.JsonRpcId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The requests a plain stdio server has taken and not yet answered, by id, compared by value as every
 * transport compares ids ({@link JsonRpcId#key()}). An id a client reused while its first request still
 * waited is owed twice: each request is answered once. What is still owed when the server stops is
 * answered with an error rather than never ({@link LineOutput#endAnswers}), so no client waits for ever.
 *
 * <p>Not thread-safe: {@link LineOutput} guards it with its count's lock.
 */
final class OwedAnswers {

    /** Each owed id by its key, with how many requests under it wait; in the order they were first asked. */
    private final Map<String, Owed> owed = new LinkedHashMap<>();

    private record Owed(JsonRpcId id, int times) {
    }

    /** A request under {@code id} waits for its answer. */
    void owe(JsonRpcId id) {
        owed.merge(id.key(), new Owed(id, 1), (was, one) -> new Owed(was.id(), was.times() + 1));
    }

    /** An answer naming {@code id} is on its way; false when no request under that id waits for one. */
    boolean pay(JsonRpcId id) {
        Owed was = id.legal() ? owed.get(id.key()) : null;
        if (was == null) {
            return false;
        }
        if (was.times() == 1) {
            owed.remove(id.key());
        } else {
            owed.put(id.key(), new Owed(was.id(), was.times() - 1));
        }
        return true;
    }

    /** Every request still waiting, one id for each (an id owed twice twice), and none from now on. */
    List<JsonRpcId> takeAll() {
        List<JsonRpcId> all = new ArrayList<>();
        owed.values().forEach(each -> {
            for (int i = 0; i < each.times(); i++) {
                all.add(each.id());
            }
        });
        owed.clear();
        return all;
    }
}
