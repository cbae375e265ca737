package dev.fleet.clientconfig;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fleet.domain.host.ClientKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A {@code --config FILE} whose name tells no client, told by its content: parsed in the format its
 * extension names ({@code .json}/{@code .jsonc}, {@code .toml}, {@code .yaml}/{@code .yml}), else in the
 * first of JSON, TOML and YAML that reads it; then by the key its servers sit under:
 * {@code mcp_servers} is Codex's, {@code extensions} Goose's, {@code context_servers} Zed's,
 * {@code servers} VS Code's, and {@code mcpServers} Claude Code's (its {@code ~/.claude.json} when it
 * has {@code projects}, else a file of the kind {@code claude --mcp-config} takes; Claude Desktop,
 * Cursor and Gemini CLI write the same shape).
 */
final class ContentSource {

    /** A parsed file with the client its content names. */
    record Parsed(ConfigSource source, JsonNode root) {
    }

    private ContentSource() {
    }

    static Parsed of(Path file, byte[] content) throws UnreadableConfig {
        List<ConfigFormat> formats = formatsFor(file);
        JsonNode root = null;
        UnreadableConfig failure = null;
        for (ConfigFormat format : formats) {
            try {
                Optional<JsonNode> parsed = format.parse(content);
                if (parsed.isEmpty()) {
                    throw new UnreadableConfig("empty");
                }
                root = parsed.get();
                break;
            } catch (UnreadableConfig e) {
                failure = e;
            }
        }
        if (root == null) {
            throw formats.size() == 1 ? failure : new UnreadableConfig("not JSON, TOML or YAML");
        }
        for (Dialect dialect : List.of(Dialect.CODEX, Dialect.GOOSE, Dialect.ZED, Dialect.VSCODE)) {
            if (root.path(dialect.serversKey()).isObject()) {
                return new Parsed(new ConfigSource(kindOf(dialect), file, dialect, null), root);
            }
        }
        if (root.path("mcpServers").isObject()) {
            Dialect dialect = root.path("projects").isObject() ? Dialect.CLAUDE_USER : Dialect.MCP_SERVERS;
            return new Parsed(new ConfigSource(ClientKind.CLAUDE_CODE, file, dialect, null), root);
        }
        throw new UnreadableConfig("no MCP client's servers in it");
    }

    private static List<ConfigFormat> formatsFor(Path file) {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".json") || name.endsWith(".jsonc")) {
            return List.of(ConfigFormat.JSON);
        }
        if (name.endsWith(".toml")) {
            return List.of(ConfigFormat.TOML);
        }
        if (name.endsWith(".yaml") || name.endsWith(".yml")) {
            return List.of(ConfigFormat.YAML);
        }
        return new ArrayList<>(List.of(ConfigFormat.JSON, ConfigFormat.TOML, ConfigFormat.YAML));
    }

    private static ClientKind kindOf(Dialect dialect) {
        switch (dialect) {
            case CODEX:
                return ClientKind.CODEX;
            case GOOSE:
                return ClientKind.GOOSE;
            case ZED:
                return ClientKind.ZED;
            default:
                return ClientKind.VSCODE;
        }
    }
}
