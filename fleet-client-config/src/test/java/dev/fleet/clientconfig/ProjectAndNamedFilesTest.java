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

/** A project's files ({@code --project}), and {@code --config FILE} told by its name or its content. */
class ProjectAndNamedFilesTest {

    @TempDir
    Path root;

    @Test
    void aProjectsFilesBelongToItsDirectory() {
        TempHost host = new TempHost(root);
        host.inProject(".mcp.json", "{\"mcpServers\": {\"claude\": {\"command\": \"c-mcp\"}}}");
        host.inProject(".cursor/mcp.json", "{\"mcpServers\": {\"cursor\": {\"command\": \"k-mcp\"}}}");
        host.inProject(".vscode/mcp.json", """
                {"servers": {"code": {"type": "stdio", "command": "v-mcp", "args": ["${workspaceFolder}/data"]}}}
                """);

        ClientConfigurations.Read read = host.read();

        String project = host.project.toString();
        assertEquals(List.of(), read.warnings());
        assertEquals(ClientKind.CLAUDE_CODE, TempHost.only(read, "claude").client());
        assertEquals(ClientKind.CURSOR, TempHost.only(read, "cursor").client());
        ConfiguredServer code = TempHost.only(read, "code");
        assertEquals(ClientKind.VSCODE, code.client());
        assertEquals(List.of(project + "/data"), code.args());
        for (ConfiguredServer server : read.servers()) {
            assertEquals(project, server.project(), server.name());
        }
    }

    /**
     * A relative HOME or XDG_CONFIG_HOME names nothing a client reads (the XDG specification: ignored), and reading
     * nothing in silence would report a host of configured servers as one without any: each is one warning.
     */
    @Test
    void aRelativeHomeIsIgnoredWithAWarningAndTheProjectIsStillRead() {
        TempHost host = new TempHost(root);
        host.inProject(".mcp.json", "{\"mcpServers\": {\"claude\": {\"command\": \"c-mcp\"}}}");
        Map<String, String> environment = Map.of("HOME", "home", "XDG_CONFIG_HOME", "rel/config", "PATH",
                host.bin.toString());

        ClientConfigurations.Read read = new ClientConfigFiles(environment).read(List.of(), host.project);

        assertEquals(List.of("HOME is not an absolute path ('home'): ignored, as a path relative to wherever fleet "
                + "runs names no client's files, so the files under it are not read", "XDG_CONFIG_HOME is not an "
                + "absolute path ('rel/config'): ignored, as a path relative to wherever fleet runs names no client's "
                + "files, so the files under it are not read"), read.warnings());
        assertEquals(List.of("HOME is not set: no user-wide configuration is read, only the project's"),
                new ClientConfigFiles(Map.of("PATH", host.bin.toString())).read(List.of(), host.project).warnings());
        assertEquals(ClientKind.CLAUDE_CODE, TempHost.only(read, "claude").client());
    }

    /** A HOME that is a file holds no configuration: each file under it is absent, not unreadable. */
    @Test
    void filesUnderAFileAreAbsent() {
        TempHost host = new TempHost(root);
        Path file = host.write(root.resolve("plain-file"), "not a folder");

        ClientConfigurations.Read read = new ClientConfigFiles(Map.of("HOME", file.toString())).read(List.of(), null);

        assertEquals(List.of(), read.warnings());
        assertEquals(List.of(), read.servers());
    }

    @Test
    void aConfigFileNamedAsAClientNamesItIsThatClients() {
        TempHost host = new TempHost(root);
        Path codex = host.write(root.resolve("elsewhere/.codex/config.toml"), "[mcp_servers.t]\ncommand = \"t-mcp\"\n");
        Path other = host.write(root.resolve("repo/.vscode/mcp.json"), "{\"servers\": {\"v\": {\"command\": \"v\"}}}");

        ClientConfigurations.Read read = host.read(codex, other);

        assertEquals(List.of(), read.warnings());
        assertEquals(ClientKind.CODEX, TempHost.only(read, "t").client());
        assertNull(TempHost.only(read, "t").project());
        assertEquals(ClientKind.VSCODE, TempHost.only(read, "v").client());
        assertEquals(root.resolve("repo").toString(), TempHost.only(read, "v").project());
    }

    @Test
    void aConfigFileWithANameNoClientGivesIsToldByItsContent() {
        TempHost host = new TempHost(root);
        Path toml = host.write(root.resolve("a.conf"), "[mcp_servers.toml]\ncommand = \"a\"\n");
        Path yaml = host.write(root.resolve("b.txt"), "extensions:\n  yaml: {type: stdio, cmd: b, enabled: true}\n");
        Path zed = host.write(root.resolve("c.json"), "{\"context_servers\": {\"zed\": {\"command\": \"c\"}}}");
        Path vscode = host.write(root.resolve("d.jsonc"), "{\"servers\": {\"code\": {\"command\": \"d\"}},}");
        Path claude = host.write(root.resolve("e"), "{\"mcpServers\": {\"claude\": {\"command\": \"e\"}}}");

        ClientConfigurations.Read read = host.read(toml, yaml, zed, vscode, claude);

        assertEquals(List.of(), read.warnings());
        assertEquals(ClientKind.CODEX, TempHost.only(read, "toml").client());
        assertEquals(ClientKind.GOOSE, TempHost.only(read, "yaml").client());
        assertEquals(ClientKind.ZED, TempHost.only(read, "zed").client());
        assertEquals(ClientKind.VSCODE, TempHost.only(read, "code").client());
        assertEquals(ClientKind.CLAUDE_CODE, TempHost.only(read, "claude").client());
        assertEquals(toml.toString(), TempHost.only(read, "toml").configFile());
    }

    @Test
    void aConfigFileThatIsNoClientsOrIsMissingIsOneWarningEach() {
        TempHost host = new TempHost(root);
        Path unknown = host.write(root.resolve("notes.json"), "{\"todo\": []}");
        Path missing = root.resolve("missing.json");

        ClientConfigurations.Read read = host.read(unknown, missing);

        assertEquals(List.of(unknown + ": no MCP client's servers in it", missing + ": no such file"),
                read.warnings());
        assertTrue(read.servers().isEmpty());
    }

    @Test
    void aFileNamedTwiceIsReadOnce() {
        TempHost host = new TempHost(root);
        Path file = host.inProject(".mcp.json", "{\"mcpServers\": {\"once\": {\"command\": \"o\"}}}");

        ClientConfigurations.Read read = host.read(file, file);

        assertEquals(1, read.servers().size());
    }
}
