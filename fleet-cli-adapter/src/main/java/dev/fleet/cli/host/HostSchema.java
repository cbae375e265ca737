package dev.fleet.cli.host;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.domain.host.ClientKind;
import dev.fleet.domain.host.ServerState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The JSON Schema (2020-12) of {@code fleet host --format json}, published as the verdict's is: the
 * verdict's travels in the assessment tool's {@code tools/list} entry; this one, having no tool, is
 * printed by {@code fleet host --schema} and committed as {@code docs/host.schema.json}, which the
 * build writes from here (as it writes docs/CLI.md) and {@code HostSchemaTest} checks. The state and
 * client-kind enums come from the domain's own enums, so a new state arrives here by itself. Every
 * field is required (the report always has each, perhaps null); objects stay open, so an added field
 * never makes a valid report fail.
 */
public final class HostSchema {

    private static final String INSTANT_PATTERN = "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?Z$";

    private HostSchema() {
    }

    /** Writes the schema to the file {@code args[0]}, unless it already says exactly that. */
    public static void main(String[] args) throws IOException {
        Path file = Path.of(args[0]);
        String text = text();
        if (!Files.isRegularFile(file) || !Files.readString(file, StandardCharsets.UTF_8).equals(text)) {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, text, StandardCharsets.UTF_8);
        }
    }

    /** The schema as published: two-space indents, {@code \n} line ends, a final newline, on every machine. */
    public static String text() {
        DefaultPrettyPrinter printer = new DefaultPrettyPrinter(Separators.createDefaultInstance()
                .withObjectFieldValueSpacing(Separators.Spacing.AFTER))
                .withObjectIndenter(new DefaultIndenter("  ", "\n"))
                .withArrayIndenter(new DefaultIndenter("  ", "\n"));
        try {
            return new ObjectMapper().writer(printer).writeValueAsString(schema()) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("a tree of maps and lists always encodes", e);
        }
    }

    static Map<String, Object> schema() {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        schema.put("title", "fleet host --format json");
        schema.put("description", "Every MCP server on this host, by client: which is current and which a stray, "
                + "with the guarded shell line that stops each stray (docs/CONTRACT.md, \"Every MCP server on this "
                + "host\").");
        schema.putAll(object(
                "clients", described(arrayOf(ref("Client")), "The live clients of configured servers."),
                "servers", described(arrayOf(ref("Server")), "Every server process with its tree (with --strays, "
                        + "the strays only)."),
                "strays", described(ordered("type", "integer", "minimum", 0), "How many servers are strays: "
                        + "stale_generation, duplicate, orphaned or leftover."),
                "warnings", described(arrayOf(ordered("type", "string")), "One line for each configuration file "
                        + "that could not be read and anything else the operator should know.")));
        Map<String, Object> defs = new LinkedHashMap<>();
        defs.put("Client", object(
                "kind", described(nullable(labels(ClientKind.values(), ClientKind::label)),
                        "The client's kind where its executable says which, else null."),
                "pid", described(integer(), "The client's pid."),
                "started_at", described(instant(), "Its start, UTC; null when unknown."),
                "command", described(types("string", "null"), "Its command line, secrets masked."),
                "project", described(types("string", "null"), "The project directory its servers were "
                        + "configured for; null when none is known.")));
        Map<String, Object> server = object(
                "client_kind", described(nullable(labels(ClientKind.values(), ClientKind::label)),
                        "The client's kind; null when unknown or gone."),
                "client_pid", described(types("integer", "null"), "The client's pid; null for an orphan."),
                "config_file", described(types("string", "null"), "The configuration file of its entry; null "
                        + "when no entry is known."),
                "name", described(types("string", "null"), "The entry's name; null when no entry is known."),
                "state", described(labels(ServerState.values(), ServerState::label), "What it is to its client."),
                "pids", described(ordered("type", "array", "items", integer(), "minItems", 1),
                        "Its tree: the root first, then its descendants by pid."),
                "root_pid", described(integer(), "The server process (for a leftover, the topmost surviving "
                        + "process)."),
                "started_ticks", described(ordered("type", "integer", "minimum", 0), "The root's start: "
                        + "/proc/PID/stat field 22, clock ticks since boot."),
                "started_at", described(instant(), "The root's start, UTC; null when unknown."),
                "memory_bytes", described(ordered("type", "integer", "minimum", 0), "The tree's memory; the one "
                        + "value that changes on an unchanged host."),
                "stop", described(types("string", "null"), "For a stray, the guarded POSIX shell line that stops "
                        + "its tree; null otherwise."));
        // A stray always carries its stop line, and nothing else does.
        server.put("if", ordered("properties", ordered("state", labels(strays(), ServerState::label))));
        server.put("then", ordered("properties", ordered("stop", ordered("type", "string"))));
        server.put("else", ordered("properties", ordered("stop", ordered("type", "null"))));
        defs.put("Server", server);
        schema.put("$defs", defs);
        return schema;
    }

    private static ServerState[] strays() {
        return Arrays.stream(ServerState.values()).filter(ServerState::stray).toArray(ServerState[]::new);
    }

    /** An open object whose every listed property is required: the report always has each, perhaps null. */
    private static Map<String, Object> object(Object... namesAndSchemas) {
        Map<String, Object> properties = ordered(namesAndSchemas);
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("type", "object");
        object.put("required", List.copyOf(properties.keySet()));
        object.put("properties", properties);
        return object;
    }

    /** A map in the order given: Map.of's order changes from run to run, and the file must not. */
    private static Map<String, Object> ordered(Object... namesAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            map.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        return map;
    }

    private static Map<String, Object> described(Map<String, Object> schema, String description) {
        Map<String, Object> described = new LinkedHashMap<>(schema);
        described.put("description", description);
        return described;
    }

    private static Map<String, Object> arrayOf(Map<String, Object> items) {
        return ordered("type", "array", "items", items);
    }

    private static Map<String, Object> ref(String definition) {
        return ordered("$ref", "#/$defs/" + definition);
    }

    private static Map<String, Object> integer() {
        return ordered("type", "integer");
    }

    private static Map<String, Object> types(String... types) {
        return ordered("type", List.of(types));
    }

    private static Map<String, Object> instant() {
        Map<String, Object> instant = new LinkedHashMap<>(types("string", "null"));
        instant.put("pattern", INSTANT_PATTERN);
        return instant;
    }

    private static <E> Map<String, Object> labels(E[] values, Function<E, String> label) {
        return ordered("enum", Arrays.stream(values).map(label).toList());
    }

    private static Map<String, Object> nullable(Map<String, Object> labels) {
        List<Object> values = new ArrayList<>((List<?>) labels.get("enum"));
        values.add(null);
        return ordered("enum", values);
    }
}
