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
 * directions, interleaved at random, with random ids (integers and strings, some alike in print),
 * cursors, unicode, key orders and whitespace, so that only a relay passing bytes unchanged keeps
 * them. Each line says which side sends it and what the relay may do to it.
 */
record Conversation(List<Line> lines, boolean childHasTools, boolean childHasResources) {

    /** Who sends a line, and what the contract lets the relay do with it. */
    enum Kind {
        /** passes byte for byte */
        VERBATIM,
        /** the child's initialize result: gains capabilities */
        CAPABILITIES,
        /** the child's last tools/list page: gains the fleet tools */
        LAST_TOOLS_PAGE,
        /** the child's last resources/list page: gains the verdict resource */
        LAST_RESOURCES_PAGE,
        /** a request the member answers itself: never reaches the child */
        OWN_REQUEST,
        /** a cancellation of such a request: never reaches the child */
        OWN_CANCELLATION
    }

    record Line(boolean fromClient, String text, Kind kind, String ownId) {
    }

    static Gen<Conversation> conversations() {
        return ((Gen<Conversation>) in -> new Builder(in).build())
                .describedAs(conversation -> conversation.lines().size() + " lines: " + conversation.lines());
    }

    private static final class Builder {
        private static final List<String> CHILD_METHODS = List.of("ping", "tools/call", "prompts/get", "prompts/list",
                "completion/complete", "logging/setLevel", "vendor/unknown", "resources/templates/list");
        private static final List<String> TO_CLIENT = List.of("sampling/createMessage", "elicitation/create",
                "roots/list", "ping", "vendor/ask");
        private static final List<String> NOTIFICATIONS = List.of("notifications/progress", "notifications/message",
                "notifications/tools/list_changed", "notifications/resources/list_changed",
                "notifications/roots/list_changed", "notifications/vendor");

        private final RandomnessSource in;
        private final RandomJson json;
        private final List<Line> lines = new ArrayList<>();
        /** The client's requests at the child, not yet answered: id as written, and method. */
        private final Map<String, String> atChild = new HashMap<>();
        /** The child's requests at the client, not yet answered. */
        private final List<String> atClient = new ArrayList<>();
        private int nextId;

        Builder(RandomnessSource in) {
            this.in = in;
            this.json = new RandomJson(this::pick);
        }

        int pick(int low, int high) {
            return (int) in.next(Constraint.between(low, high));
        }

        Conversation build() {
            boolean tools = pick(0, 3) > 0;
            boolean resources = pick(0, 2) > 0;
            String initId = freshId();
            client(json.message(initId, "initialize", json.object()), Kind.VERBATIM, null);
            String capabilities = "{" + (tools ? "\"tools\":{\"listChanged\":true}," : "")
                    + (resources ? "\"resources\":{\"subscribe\":" + (pick(0, 1) == 0) + "}," : "")
                    + "\"logging\":{}}";
            child(json.result(initId, "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":" + capabilities
                    + ",\"serverInfo\":" + json.object() + "}"), Kind.CAPABILITIES);
            int steps = pick(0, 40);
            for (int i = 0; i < steps; i++) {
                step(tools, resources);
            }
            return new Conversation(List.copyOf(lines), tools, resources);
        }

        private void step(boolean tools, boolean resources) {
            switch (pick(0, 9)) {
                case 0, 1 -> {
                    String id = freshId();
                    String method = CHILD_METHODS.get(pick(0, CHILD_METHODS.size() - 1));
                    if (method.equals("resources/templates/list") && !resources) {
                        method = "ping";
                    }
                    atChild.put(id, method);
                    client(json.message(id, method, json.object()), Kind.VERBATIM, null);
                }
                case 2 -> {
                    if (tools || resources) {
                        String method = tools ? "tools/list" : "resources/list";
                        String id = freshId();
                        atChild.put(id, method);
                        client(json.message(id, method, pick(0, 1) == 0 ? null : "{\"cursor\":" + json.string() + "}"),
                                Kind.VERBATIM, null);
                    }
                }
                case 3 -> {
                    String id = freshId();
                    String own = pick(0, 1) == 0
                            ? "{\"name\":\"gitea_get_runtime_context\",\"arguments\":{}}" : "{\"uri\":\"fleet://verdict\"}";
                    client(json.message(id, own.contains("uri") ? "resources/read" : "tools/call", own),
                            Kind.OWN_REQUEST, id);
                    if (pick(0, 1) == 0) {
                        client(json.notification("notifications/cancelled", "{\"requestId\":" + id + "}"),
                                Kind.OWN_CANCELLATION, id);
                    }
                }
                case 4 -> client(json.notification(NOTIFICATIONS.get(pick(0, NOTIFICATIONS.size() - 1)), json.object()),
                        Kind.VERBATIM, null);
                case 5, 6 -> answerAtChild();
                case 7 -> {
                    String id = freshId();
                    atClient.add(id);
                    child(json.message(id, TO_CLIENT.get(pick(0, TO_CLIENT.size() - 1)), json.object()), Kind.VERBATIM);
                }
                case 8 -> child(json.notification(NOTIFICATIONS.get(pick(0, NOTIFICATIONS.size() - 1)), json.object()),
                        Kind.VERBATIM);
                default -> {
                    if (!atClient.isEmpty()) {
                        String id = atClient.remove(pick(0, atClient.size() - 1));
                        client(pick(0, 3) == 0 ? json.error(id) : json.result(id, json.object()), Kind.VERBATIM, null);
                    }
                }
            }
        }

        /** The child answers one waiting request, in any order; a list answer is a page, maybe the last. */
        private void answerAtChild() {
            if (atChild.isEmpty()) {
                return;
            }
            List<String> ids = new ArrayList<>(atChild.keySet());
            ids.sort(null);
            String id = ids.get(pick(0, ids.size() - 1));
            String method = atChild.remove(id);
            if (method.equals("tools/list") || method.equals("resources/list")) {
                String list = method.equals("tools/list") ? "tools" : "resources";
                int cursor = pick(0, 3);
                String next = switch (cursor) {
                    case 0 -> "";
                    case 1 -> ",\"nextCursor\":null";
                    default -> ",\"nextCursor\":" + json.string();
                };
                String entries = json.entries(list.equals("tools") ? "name" : "uri", pick(0, 3));
                Kind kind = cursor < 2 ? (list.equals("tools") ? Kind.LAST_TOOLS_PAGE : Kind.LAST_RESOURCES_PAGE)
                        : Kind.VERBATIM;
                child(json.result(id, "{\"" + list + "\":" + entries + next + "}"), kind);
            } else {
                child(pick(0, 4) == 0 ? json.error(id) : json.result(id, json.object()), Kind.VERBATIM);
            }
        }

        /** A fresh id as written: an integer, or a string that may print like one. */
        private String freshId() {
            int n = ++nextId;
            return switch (pick(0, 2)) {
                case 0 -> Integer.toString(n);
                case 1 -> "\"" + n + "\"";
                default -> "\"id-" + n + "-\\u00e9\"";
            };
        }

        private void client(String text, Kind kind, String ownId) {
            lines.add(new Line(true, text, kind, ownId));
        }

        private void child(String text, Kind kind) {
            lines.add(new Line(false, text, kind, null));
        }
    }
}
