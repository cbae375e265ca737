package dev.fleet.clientconfig;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where a client keeps its servers in its file, and in which format. What each layout relies on
 * (the clients' own documentation, read in 2026):
 * <ul>
 *   <li>{@link #CLAUDE_USER}: Claude Code's {@code ~/.claude.json}: user-wide servers under the top-level
 *       {@code mcpServers}, each project's under {@code projects.<directory>.mcpServers};</li>
 *   <li>{@link #MCP_SERVERS}: a top-level {@code mcpServers} object (a project's {@code .mcp.json},
 *       Claude Desktop, Cursor, Gemini CLI, Claude Code's {@code --mcp-config} file);</li>
 *   <li>{@link #VSCODE}: VS Code's {@code mcp.json}, a top-level {@code servers} object (JSON with comments);</li>
 *   <li>{@link #CODEX}: Codex's {@code config.toml}, one {@code [mcp_servers.NAME]} table per server;</li>
 *   <li>{@link #ZED}: Zed's {@code settings.json}, a top-level {@code context_servers} object (JSON with
 *       comments and trailing commas);</li>
 *   <li>{@link #GOOSE}: Goose's {@code config.yaml}, a top-level {@code extensions} mapping.</li>
 * </ul>
 */
enum Dialect {
    CLAUDE_USER(ConfigFormat.JSON, "mcpServers"),
    MCP_SERVERS(ConfigFormat.JSON, "mcpServers"),
    VSCODE(ConfigFormat.JSON, "servers"),
    CODEX(ConfigFormat.TOML, "mcp_servers"),
    ZED(ConfigFormat.JSON, "context_servers"),
    GOOSE(ConfigFormat.YAML, "extensions");

    private final ConfigFormat format;
    private final String serversKey;

    Dialect(ConfigFormat format, String serversKey) {
        this.format = format;
        this.serversKey = serversKey;
    }

    ConfigFormat format() {
        return format;
    }

    /** The top-level key under which its servers are named. */
    String serversKey() {
        return serversKey;
    }

    /**
     * Every server block of {@code root} in the file's order, at most {@code limit + 1} (so a caller can
     * tell that there were more); {@code project} is the file's own project, if any.
     */
    List<RawEntry> entries(JsonNode root, String project, int limit) {
        List<RawEntry> entries = new ArrayList<>();
        collect(root.get(serversKey), project, entries, limit + 1);
        if (this == CLAUDE_USER) {
            JsonNode projects = root.get("projects");
            if (projects != null && projects.isObject()) {
                for (Map.Entry<String, JsonNode> one : projects.properties()) {
                    if (entries.size() > limit) {
                        break;
                    }
                    if (one.getValue().isObject()) {
                        collect(one.getValue().get(serversKey), one.getKey(), entries, limit + 1);
                    }
                }
            }
        }
        return entries;
    }

    private static void collect(JsonNode servers, String project, List<RawEntry> into, int limit) {
        if (servers == null || !servers.isObject()) {
            return;
        }
        for (Map.Entry<String, JsonNode> one : servers.properties()) {
            if (into.size() >= limit) {
                return;
            }
            into.add(new RawEntry(one.getKey(), project, one.getValue()));
        }
    }
}
