package dev.fleet.clientconfig;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Tells a stdio server's block from the rest and takes its command and arguments, and nothing else:
 * {@code env}, {@code envs}, {@code headers} and every other key are never looked at, so no secret of a
 * block reaches a record. What it relies on:
 * <ul>
 *   <li>a block with a {@code url} (or Gemini's {@code httpUrl}, Windsurf's {@code serverUrl}) is a remote
 *       server; so is one whose {@code type} is other than {@code stdio} (Claude Code's and VS Code's
 *       {@code http} and {@code sse}; Goose's {@code builtin}, {@code sse}, {@code streamable_http});</li>
 *   <li>{@code enabled: false} (Codex, Goose, Zed) or {@code disabled: true} switches a server off: its
 *       client does not start it;</li>
 *   <li>Goose names the command {@code cmd}; Zed's {@code command} is a string beside {@code args}, or
 *       (before Zed 0.194) an object {@code {path, args, env}}; a Zed server with no command is one an
 *       extension provides;</li>
 *   <li>a scalar argument that is no string (YAML's {@code 8080}) is taken as its text.</li>
 * </ul>
 */
final class StdioEntries {

    private StdioEntries() {
    }

    static EntryReading read(Dialect dialect, RawEntry entry) {
        JsonNode node = entry.node();
        if (!node.isObject() || entry.name().length() > ReadBounds.ARG_CHARS) {
            return new EntryReading.Malformed();
        }
        if (switchedOff(node) || remote(node)) {
            return new EntryReading.NotStdio();
        }
        JsonNode command = node.get(dialect == Dialect.GOOSE ? "cmd" : "command");
        JsonNode args = node.get("args");
        if (dialect == Dialect.ZED && command != null && command.isObject()) {
            args = command.get("args");
            command = command.get("path");
        }
        if (command == null || command.isNull()) {
            return dialect == Dialect.ZED ? new EntryReading.NotStdio() : new EntryReading.Malformed();
        }
        if (!command.isTextual() || command.asText().isBlank() || command.asText().length() > ReadBounds.ARG_CHARS) {
            return new EntryReading.Malformed();
        }
        List<String> argv = new ArrayList<>();
        if (args != null && !args.isNull()) {
            if (!args.isArray() || args.size() > ReadBounds.ARGS_PER_ENTRY) {
                return new EntryReading.Malformed();
            }
            for (JsonNode arg : args) {
                if (!arg.isValueNode() || arg.isNull() || arg.asText().length() > ReadBounds.ARG_CHARS) {
                    return new EntryReading.Malformed();
                }
                argv.add(arg.asText());
            }
        }
        return new EntryReading.Stdio(command.asText(), argv);
    }

    private static boolean switchedOff(JsonNode node) {
        return "false".equals(text(node.get("enabled"))) || "true".equals(text(node.get("disabled")));
    }

    private static boolean remote(JsonNode node) {
        if (node.hasNonNull("url") || node.hasNonNull("httpUrl") || node.hasNonNull("serverUrl")) {
            return true;
        }
        String type = text(node.get("type"));
        return type != null && !type.equals("stdio");
    }

    private static String text(JsonNode value) {
        return value != null && value.isValueNode() && !value.isNull() ? value.asText() : null;
    }
}
