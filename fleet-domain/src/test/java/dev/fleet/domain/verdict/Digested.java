package dev.fleet.domain.verdict;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A verdict document as the contract says the digest sees it, worked out independently of the production code. */
final class Digested {

    private Digested() {
    }

    /** The tree without observation, verdict_digest and every last_heartbeat_at, at any depth. */
    static Map<String, Object> strip(Map<String, Object> document) {
        Map<String, Object> copy = new LinkedHashMap<>(document);
        copy.remove("observation");
        copy.remove("verdict_digest");
        return withoutHeartbeats(copy);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> withoutHeartbeats(Map<String, Object> map) {
        Map<String, Object> copy = new LinkedHashMap<>();
        map.forEach((key, value) -> {
            if (!key.equals("last_heartbeat_at")) {
                copy.put(key, value instanceof Map<?, ?> inner ? withoutHeartbeats((Map<String, Object>) inner)
                        : value instanceof List<?> list ? list.stream()
                                .map(item -> item instanceof Map<?, ?> m ? withoutHeartbeats((Map<String, Object>) m) : item)
                                .toList()
                                : value);
            }
        });
        return copy;
    }
}
