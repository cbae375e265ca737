package dev.fleet.clientconfig;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.host.ClientKind;
import dev.fleet.domain.host.ConfiguredServer;
import dev.fleet.domain.port.out.ClientConfigurations;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each client's own file, where the client keeps it under a temporary HOME, in the client's own format. */
class EachClientTest {

    @TempDir
    Path root;

    private ConfiguredServer readOne(TempHost host, String name, ClientKind kind, Path file) {
        ClientConfigurations.Read read = host.read();
        assertEquals(List.of(), read.warnings());
        ConfiguredServer server = TempHost.only(read, name);
        assertEquals(kind, server.client());
        assertEquals(file.toString(), server.configFile());
        return server;
    }

    @Test
    void claudeCodeReadsTheUserWideAndEveryProjectsServersOfClaudeJson() {
        TempHost host = new TempHost(root);
        Path file = host.inHome(".claude.json", """
                {"numStartups": 3,
                 "mcpServers": {"memory": {"type": "stdio", "command": "mcp-memory", "args": ["--db", "m.db"]}},
                 "projects": {
                   "/src/app": {"allowedTools": [], "mcpServers": {"db": {"command": "db-mcp", "args": []}}},
                   "/src/other": {"mcpServers": {}}
                 }}
                """);

        ConfiguredServer memory = readOne(host, "memory", ClientKind.CLAUDE_CODE, file);
        assertEquals("mcp-memory", memory.command());
        assertEquals(List.of("--db", "m.db"), memory.args());
        assertNull(memory.project());
        ConfiguredServer db = readOne(host, "db", ClientKind.CLAUDE_CODE, file);
        assertEquals("/src/app", db.project());
        assertEquals(List.of(List.of("db-mcp")), db.launchForms());
    }

    @Test
    void claudeDesktopReadsItsFileUnderXdgConfigHome() {
        TempHost host = new TempHost(root);
        Path file = host.inHome(".config/Claude/claude_desktop_config.json", """
                {"mcpServers": {"files": {"command": "/opt/files/server", "args": ["/tmp"]}},
                 "globalShortcut": ""}
                """);

        ConfiguredServer files = readOne(host, "files", ClientKind.CLAUDE_DESKTOP, file);
        assertEquals(List.of(List.of("/opt/files/server", "/tmp")), files.launchForms());
    }

    @Test
    void xdgConfigHomeIsHonouredWhenSet() {
        TempHost host = new TempHost(root);
        Path elsewhere = root.resolve("xdg");
        Path file = host.write(elsewhere.resolve("goose/config.yaml"), """
                extensions:
                  search: {type: stdio, cmd: search-mcp, args: [], enabled: true}
                """);
        host.inHome(".config/goose/config.yaml", "extensions: {ignored: {type: stdio, cmd: x, enabled: true}}\n");

        ClientConfigurations.Read read = new ClientConfigFiles(Map.of("HOME", host.home.toString(),
                "XDG_CONFIG_HOME", elsewhere.toString(), "PATH", host.bin.toString())).read(List.of(), host.project);

        assertEquals(List.of("search"), read.servers().stream().map(ConfiguredServer::name).toList());
        assertEquals(file.toString(), read.servers().get(0).configFile());
    }

    @Test
    void cursorReadsItsUserFile() {
        TempHost host = new TempHost(root);
        Path file = host.inHome(".cursor/mcp.json", """
                {"mcpServers": {"browser": {"command": "browser-mcp", "args": ["--headless"], "env": {}}}}
                """);

        assertEquals(List.of("--headless"), readOne(host, "browser", ClientKind.CURSOR, file).args());
    }

    @Test
    void vscodeReadsServersFromItsCommentedUserFileAndSkipsRemoteOnes() {
        TempHost host = new TempHost(root);
        Path file = host.inHome(".config/Code/User/mcp.json", """
                {
                  // VS Code writes JSON with comments, and trailing commas are accepted
                  "inputs": [],
                  "servers": {
                    "git": {"type": "stdio", "command": "git-mcp", "args": ["--repo", "."],},
                    "remote": {"type": "http", "url": "https://example.com/mcp"},
                    "sse": {"type": "sse", "command": "never-started"},
                  },
                }
                """);

        ConfiguredServer git = readOne(host, "git", ClientKind.VSCODE, file);
        assertEquals(List.of("--repo", "."), git.args());
        assertEquals(1, host.read().servers().size());
    }

    @Test
    void codexReadsEachMcpServersTableOfItsToml() {
        TempHost host = new TempHost(root);
        Path file = host.inHome(".codex/config.toml", """
                model = "o4"

                [mcp_servers.docs]
                command = "docs-mcp"
                args = ["--port", "0"]
                env = { "API_KEY" = "not-read" }

                [mcp_servers.off]
                command = "off-mcp"
                enabled = false

                [mcp_servers.remote]
                url = "https://example.com/mcp"
                """);

        ConfiguredServer docs = readOne(host, "docs", ClientKind.CODEX, file);
        assertEquals(List.of("--port", "0"), docs.args());
        assertEquals(List.of("docs"), host.read().servers().stream().map(ConfiguredServer::name).toList());
    }

    @Test
    void codexHomeIsHonouredWhenSet() {
        TempHost host = new TempHost(root);
        Path file = host.write(root.resolve("codex-home/config.toml"), "[mcp_servers.a]\ncommand = \"a-mcp\"\n");

        ClientConfigurations.Read read = new ClientConfigFiles(Map.of("HOME", host.home.toString(),
                "CODEX_HOME", root.resolve("codex-home").toString())).read(List.of(), null);

        assertEquals(file.toString(), TempHost.only(read, "a").configFile());
    }

    @Test
    void zedReadsBothItsCommandShapesAndSkipsExtensionServers() {
        TempHost host = new TempHost(root);
        Path file = host.inHome(".config/zed/settings.json", """
                {
                  "theme": "One Dark", // Zed's settings are JSON with comments
                  "context_servers": {
                    "current": {"source": "custom", "command": "new-mcp", "args": ["a"], "env": {}},
                    "older": {"command": {"path": "/usr/local/bin/old-mcp", "args": ["b"], "env": {}}, "settings": {}},
                    "from-extension": {"source": "extension", "settings": {}},
                  },
                }
                """);

        assertEquals(List.of("a"), readOne(host, "current", ClientKind.ZED, file).args());
        ConfiguredServer older = readOne(host, "older", ClientKind.ZED, file);
        assertEquals("/usr/local/bin/old-mcp", older.command());
        assertEquals(List.of("b"), older.args());
        assertEquals(2, host.read().servers().size());
    }

    @Test
    void geminiReadsMcpServersAndSkipsHttpUrlOnes() {
        TempHost host = new TempHost(root);
        Path file = host.inHome(".gemini/settings.json", """
                {"theme": "Default", "mcpServers": {
                  "py": {"command": "python3", "args": ["-m", "srv"], "cwd": "./srv", "timeout": 30000},
                  "web": {"httpUrl": "https://example.com/mcp"}}}
                """);

        assertEquals(List.of("-m", "srv"), readOne(host, "py", ClientKind.GEMINI, file).args());
        assertEquals(1, host.read().servers().size());
    }

    @Test
    void gooseReadsEnabledStdioExtensionsOnly() {
        TempHost host = new TempHost(root);
        Path file = host.inHome(".config/goose/config.yaml", """
                GOOSE_PROVIDER: openai
                extensions:
                  developer: {type: builtin, name: developer, enabled: true}
                  github:
                    name: GitHub
                    type: stdio
                    cmd: npx
                    args: [-y, "@modelcontextprotocol/server-github", 8080]
                    enabled: true
                    envs: {GITHUB_PERSONAL_ACCESS_TOKEN: not-read}
                    timeout: 300
                  paused: {type: stdio, cmd: paused-mcp, args: [], enabled: false}
                """);

        ConfiguredServer github = readOne(host, "github", ClientKind.GOOSE, file);
        assertEquals("npx", github.command());
        assertEquals(List.of("-y", "@modelcontextprotocol/server-github", "8080"), github.args());
        assertEquals(1, host.read().servers().size());
    }

    /**
     * Goose reads its file with serde_yaml, which follows an alias to its anchor's value and takes a merge key
     * ({@code <<}) as a key like any other: so does fleet. An alias read as its anchor's name would start no server
     * Goose starts.
     */
    @Test
    void gooseAliasesAreFollowedAndMergeKeysAreNot() {
        TempHost host = new TempHost(root);
        Path file = host.inHome(".config/goose/config.yaml", """
                defaults: &npx {type: stdio, cmd: npx, args: &serverArgs [-y, "@modelcontextprotocol/server-memory"]}
                extensions:
                  memory:
                    type: stdio
                    cmd: &command npx
                    args: *serverArgs
                    enabled: true
                  again: {type: stdio, cmd: *command, args: [-y, *command], enabled: true}
                  merged:
                    <<: *npx
                    enabled: true
                """);

        ClientConfigurations.Read read = host.read();
        assertEquals(List.of(file + ": 1 server skipped (no command, or over the bounds)"), read.warnings(),
                "a merge key is no command: Goose starts no 'merged'");
        ConfiguredServer memory = TempHost.only(read, "memory");
        assertEquals(ClientKind.GOOSE, memory.client());
        assertEquals("npx", memory.command());
        assertEquals(List.of("-y", "@modelcontextprotocol/server-memory"), memory.args());
        ConfiguredServer again = TempHost.only(read, "again");
        assertEquals("npx", again.command());
        assertEquals(List.of("-y", "npx"), again.args());
        assertEquals(2, read.servers().size());
    }

    @Test
    void noFileAtAllIsNoServerAndNoWarning() {
        ClientConfigurations.Read read = new TempHost(root).read();

        assertTrue(read.servers().isEmpty());
        assertTrue(read.warnings().isEmpty());
    }
}
