package dev.fleet.cli.testing;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The checks of a JSON tree's shape that {@link VerdictShape} is written with: each adds a line to
 * {@link #problems} for what is wrong and lets the checks go on, so that one look lists every problem
 * rather than the first.
 */
abstract class JsonShape {

    final List<String> problems = new ArrayList<>();

    void exactKeys(String where, JsonNode node, List<String> keys) {
        if (node == null || !node.isObject()) {
            problems.add(where + " is not an object: " + node);
            return;
        }
        Set<String> seen = new LinkedHashSet<>();
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            seen.add(names.next());
        }
        if (!seen.equals(new LinkedHashSet<>(keys))) {
            Set<String> missing = new LinkedHashSet<>(keys);
            missing.removeAll(seen);
            seen.removeAll(keys);
            problems.add(where + ": missing " + missing + ", unexpected " + seen);
        }
    }

    List<JsonNode> array(JsonNode node, String field) {
        JsonNode value = node == null ? null : node.get(field);
        List<JsonNode> items = new ArrayList<>();
        if (value == null || !value.isArray()) {
            problems.add(field + " is not an array");
            return items;
        }
        value.forEach(items::add);
        return items;
    }

    void strings(JsonNode v, String field) {
        for (JsonNode item : array(v, field)) {
            if (!item.isTextual()) {
                problems.add(field + " holds a non-string " + item);
            }
        }
    }

    void bool(JsonNode v, String field) {
        if (!v.path(field).isBoolean()) {
            problems.add(field + " is not a boolean: " + v.get(field));
        }
    }

    void nullableBool(JsonNode v, String field) {
        JsonNode value = v.get(field);
        if (value == null || !(value.isBoolean() || value.isNull())) {
            problems.add(field + " is not true, false or null: " + value);
        }
    }

    void integer(JsonNode v, String field) {
        if (!v.path(field).isIntegralNumber() || v.path(field).asInt() < 0) {
            problems.add(field + " is not a non-negative integer: " + v.get(field));
        }
    }
}
