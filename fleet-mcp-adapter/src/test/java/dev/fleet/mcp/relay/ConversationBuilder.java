package dev.fleet.mcp.relay;

import dev.fleet.mcp.relay.Conversation.Kind;
import dev.fleet.mcp.relay.Conversation.Line;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.quicktheories.core.Gen;
import org.quicktheories.core.RandomnessSource;
import org.quicktheories.impl.Constraint;

/** Builds one random {@link Conversation}, line by line, from QuickTheories' randomness. */
final class ConversationBuilder {
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
    /** The requests the fleet answers itself. */
    private final List<String> ownIds = new ArrayList<>();
    private int nextId;

    ConversationBuilder(RandomnessSource in) {
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
        String declared = List.of("{\"subscribe\":false}", "{\"subscribe\":true}", "{\"listChanged\":true}", "{}")
                .get(pick(0, 3));
        List<String> members = new ArrayList<>(List.of("\"logging\":{}", "\"experimental\":{\"n\":"
                + json.number() + ",\"s\":" + json.string() + "}"));
        List<String> amended = new ArrayList<>(members);
        if (tools) {
            members.add("\"tools\":{\"listChanged\":true}");
            amended.add("\"tools\":{\"listChanged\":true}");
        }
        if (resources) {
            members.add("\"resources\":" + declared);
            amended.add("\"resources\":" + switch (declared) {
                case "{}" -> "{\"subscribe\":true}";
                case "{\"listChanged\":true}" -> "{\"listChanged\":true,\"subscribe\":true}";
                default -> "{\"subscribe\":true}";
            });
        }
        // the same shuffle for both: the text as the child writes it, and as the relay must send it
        long seed = pick(0, Integer.MAX_VALUE);
        String capabilities = shuffled(members, seed);
        String expected = shuffled(amended, seed);
        List<String> gained = new ArrayList<>();
        if (!tools) {
            gained.add("\"tools\":{}");
        }
        if (!resources) {
            gained.add("\"resources\":{\"subscribe\":true}");
        }
        if (!gained.isEmpty()) {
            expected = expected.substring(0, expected.length() - 1) + "," + String.join(",", gained) + "}";
        }
        String result = "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":" + capabilities + ",\"serverInfo\":"
                + json.object() + ",\"n\":" + json.number() + "}";
        String line = json.result(respelt(initId), result);
        child(line, Kind.CAPABILITIES, line.replace(result, result.replace(capabilities, expected)));
        int steps = pick(0, 40);
        for (int i = 0; i < steps; i++) {
            step(tools, resources);
        }
        return new Conversation(List.copyOf(lines), tools, resources);
    }

    /** {@code members} as an object's text, in an order and with whitespace that {@code seed} picks. */
    private static String shuffled(List<String> members, long seed) {
        java.util.Random random = new java.util.Random(seed);
        return new RandomJson((low, high) -> low + random.nextInt(high - low + 1)).members(members);
    }

    private void step(boolean tools, boolean resources) {
        switch (pick(0, 10)) {
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
                ownIds.add(id);
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
            case 10 -> child(malformed(), Kind.DROPPED);
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
            page(respelt(id), method.equals("tools/list"));
        } else {
            child(pick(0, 4) == 0 ? json.error(respelt(id)) : json.result(respelt(id), json.object()),
                    Kind.VERBATIM);
        }
    }

    /**
     * A list page answering {@code id}, maybe the last, maybe with an impostor of a fleet name among
     * the child's entries: the expected text leaves it out with the comma that separated it, and
     * on the last page marks where the fleet's entries go (after the last entry kept).
     */
    private void page(String id, boolean tools) {
        String list = tools ? "tools" : "resources";
        String key = tools ? "name" : "uri";
        int count = pick(0, 3);
        int impostor = pick(0, 2) == 0 ? pick(0, count) : -1;
        int size = count + (impostor < 0 ? 0 : 1);
        List<String> entries = new ArrayList<>();
        List<String> separators = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            String name = i == impostor ? (tools ? List.of("gitea_get_runtime_context",
                    "gitea_assess_fleet_inventory").get(pick(0, 1)) : "fleet://verdict") : "entry-" + i + "-" + json.word();
            entries.add(json.entry(key, name));
            separators.add(i == 0 ? "" : "," + json.space());
        }
        String leading = json.space();
        String trailing = json.space();
        StringBuilder text = new StringBuilder("[").append(leading);
        for (int i = 0; i < size; i++) {
            text.append(separators.get(i)).append(entries.get(i));
        }
        text.append(trailing).append(']');
        int cursor = pick(0, 3);
        boolean last = cursor < 2;
        StringBuilder expected = new StringBuilder("[").append(leading);
        boolean kept = false;
        for (int i = 0; i < size; i++) {
            if (i != impostor) {
                expected.append(!kept ? "" : i == impostor + 1 ? separators.get(impostor) : separators.get(i))
                        .append(entries.get(i));
                kept = true;
            }
        }
        expected.append(last && kept ? "\0" : "").append(trailing).append(last && !kept ? "\0" : "").append(']');
        String next = switch (cursor) {
            case 0 -> "";
            case 1 -> ",\"nextCursor\":null";
            default -> ",\"nextCursor\":" + json.string();
        };
        String line = json.result(id, "{\"" + list + "\":" + text + next + "}");
        Kind kind = tools ? Kind.TOOLS_PAGE : Kind.RESOURCES_PAGE;
        child(line, last || impostor >= 0 ? kind : Kind.VERBATIM, line.replace(text, expected));
    }

    /**
     * A child line of a malformed shape, naming an id the client or the fleet waits on where it can
     * (a request and a response at once, for an answer still pending, must not pass either).
     */
    private String malformed() {
        List<String> waiting = new ArrayList<>(atChild.keySet());
        waiting.addAll(ownIds);
        waiting.sort(null);
        String id = waiting.isEmpty() ? freshId() : waiting.get(pick(0, waiting.size() - 1));
        return switch (pick(0, 13)) {
            case 0 -> "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\",\"result\":{}}";
            case 1 -> "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{},\"error\":{\"code\":-1,\"message\":\"x\"}}";
            case 2 -> "{\"jsonrpc\":\"2.0\",\"id\":" + id + "}";
            case 3 -> "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"id\":null}";
            case 4 -> "{\"jsonrpc\":\"2.0\",\"method\":\"roots/list\",\"id\":" + List.of("true", "{}", "[1]")
                    .get(pick(0, 2)) + "}";
            case 5 -> "{\"jsonrpc\":\"2.0\",\"method\":7,\"id\":" + id + "}";
            case 6 -> List.of("42", "\"text\"", "[]", "null", "true").get(pick(0, 4));
            case 7 -> "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{}";
            case 8 -> "not json " + id;
            case 9 -> "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"a\":1},\"result\":{\"a\":2}}";
            case 10 -> "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"result\":{}}";
            case 11 -> "{\"jsonrpc\":\"2.0\",\"id\":\"nobody-" + nextId + "\",\"result\":{}}";
            case 12 -> "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{}} {\"jsonrpc\":\"2.0\"}";
            default -> "[" + "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"x\",\"error\":{}}" + "]";
        };
    }

    /** An answer's id: a number id in another spelling of the same value, now and then. */
    private String respelt(String id) {
        if (!id.matches("-?[0-9]+")) {
            return id;
        }
        return switch (pick(0, 3)) {
            case 0 -> id + ".0";
            case 1 -> id + "0e-1";
            case 2 -> id + ".000E+0";
            default -> id;
        };
    }

    /** A fresh id as written: a string that may print like a number, or a number of any form. */
    private String freshId() {
        int n = ++nextId;
        return switch (pick(0, 8)) {
            case 0 -> Integer.toString(n);
            case 1 -> "\"" + n + "\"";
            case 2 -> "\"id-" + n + "-\\u00e9\"";
            case 3 -> "-" + n;
            case 4 -> n + ".5";
            case 5 -> n + "e400";
            case 6 -> n + "1234567890123456789012345";
            case 7 -> n + ".000000000000000000001";
            default -> n + ".5e-3";
        };
    }

    private void client(String text, Kind kind, String ownId) {
        lines.add(new Line(true, text, kind, ownId, text));
    }

    private void child(String text, Kind kind) {
        child(text, kind, text);
    }

    private void child(String text, Kind kind, String expected) {
        lines.add(new Line(false, text, kind, null, expected));
    }
}
