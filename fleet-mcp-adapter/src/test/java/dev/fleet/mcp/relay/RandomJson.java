package dev.fleet.mcp.relay;

import java.util.function.BinaryOperator;

/**
 * JSON text as varied as real peers write it: random whitespace between tokens, key orders, escapes
 * of non-ASCII characters, quotes and backslashes inside strings, deep and empty objects. A relay
 * that re-encoded a message would change such text; one that passes bytes keeps it.
 */
final class RandomJson {

    private static final String[] WORDS = {"a", "cursor-1", "é", "日本", "\\\"quoted\\\"", "back\\\\slash", "😀",
            "\\u00e9", "tab\\t", "fleet://verdict?no", "gitea_assess_fleet_inventory_not"};

    /**
     * Numbers a relay that made them doubles would change: beyond a double's range, finer than its
     * precision, longer than Jackson's default limit of 1,000 digits, negative zero, exponents.
     */
    static final String[] NUMBERS = {"1.5e3", "1e400", "-1E-400", "0.1000000000000000055511151231257827", "-0.0",
            "1E+2", "12345678901234567890123", "-7", "2.50", "1" + "0123456789".repeat(150), "0.0" + "9".repeat(1500)};

    private final BinaryOperator<Integer> pick;

    RandomJson(BinaryOperator<Integer> pick) {
        this.pick = pick;
    }

    private int pick(int low, int high) {
        return pick.apply(low, high);
    }

    String message(String id, String method, String params) {
        return object("\"jsonrpc\"", "\"2.0\"", "\"id\"", id, "\"method\"", quote(method),
                params == null ? null : "\"params\"", params);
    }

    String notification(String method, String params) {
        return object("\"jsonrpc\"", "\"2.0\"", "\"method\"", quote(method), "\"params\"", params);
    }

    String result(String id, String result) {
        return object("\"jsonrpc\"", "\"2.0\"", "\"id\"", id, "\"result\"", result);
    }

    String error(String id) {
        // Never -32601: to a list the fleet amends, "method not found" is answered by the member in the
        // child's stead (§13), which RelayModernEraTest checks; here an error passes unchanged.
        int below = pick(0, 699);
        return object("\"jsonrpc\"", "\"2.0\"", "\"id\"", id, "\"error\"",
                object("\"code\"", Integer.toString(-32000 - (below >= 601 ? below + 1 : below)), "\"message\"",
                        string()));
    }

    /** An entry of a list page: an object with {@code key} and more. */
    String entry(String key, String name) {
        return object(quote(key), quote(name), "\"extra\"", value(2));
    }

    /** Whitespace as a peer may put it between tokens: none, or some. */
    String space() {
        return switch (pick(0, 5)) {
            case 0 -> " ";
            case 1 -> "\t";
            case 2 -> "  ";
            default -> "";
        };
    }

    /** An object of the given member texts ({@code "key":value}), in an order picked at random. */
    String members(java.util.List<String> members) {
        java.util.List<String> shuffled = new java.util.ArrayList<>(members);
        for (int i = shuffled.size() - 1; i > 0; i--) {
            java.util.Collections.swap(shuffled, i, pick(0, i));
        }
        return "{" + space() + String.join("," + space(), shuffled) + space() + "}";
    }

    String word() {
        return WORDS[pick(0, WORDS.length - 1)];
    }

    String object() {
        int keys = pick(0, 3);
        String[] pairs = new String[keys * 2];
        for (int i = 0; i < keys; i++) {
            pairs[2 * i] = quote("k" + i + WORDS[pick(0, WORDS.length - 1)]);
            pairs[2 * i + 1] = value(3);
        }
        return object(pairs);
    }

    String number() {
        return NUMBERS[pick(0, NUMBERS.length - 1)];
    }

    String string() {
        return quote(WORDS[pick(0, WORDS.length - 1)] + pick(0, 99));
    }

    String value(int depth) {
        return switch (depth <= 0 ? pick(0, 3) : pick(0, 6)) {
            case 0 -> string();
            case 1 -> Integer.toString(pick(-1000, 1000));
            case 2 -> pick(0, 1) == 0 ? "true" : "null";
            case 3 -> number();
            case 4 -> "[" + space() + value(depth - 1) + space() + "]";
            default -> {
                String[] pairs = {quote("n" + depth), value(depth - 1)};
                yield object(pairs);
            }
        };
    }

    /** An object of the given key/value texts (null pairs left out), in an order picked at random. */
    private String object(String... pairs) {
        java.util.List<String> members = new java.util.ArrayList<>();
        for (int i = 0; i < pairs.length; i += 2) {
            if (pairs[i] != null) {
                members.add(pairs[i] + space() + ':' + space() + pairs[i + 1]);
            }
        }
        for (int i = members.size() - 1; i > 0; i--) {
            java.util.Collections.swap(members, i, pick(0, i));
        }
        return "{" + space() + String.join("," + space(), members) + space() + "}";
    }

    static String quote(String text) {
        return "\"" + text + "\"";
    }
}
