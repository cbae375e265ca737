package dev.fleet.clientconfig;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.fleet.domain.host.ConfiguredServer;
import dev.fleet.domain.port.out.ClientConfigurations;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Values of {@code env} blocks and headers are never read into any record, in any client's format. */
class SecretsTest {

    private static final String SECRET = "ghp_SeCrEt0123456789";

    @TempDir
    Path root;

    @Test
    void noEnvValueNorHeaderReachesAnyRecordOrWarning() {
        TempHost host = new TempHost(root);
        host.inHome(".claude.json", "{\"mcpServers\": {\"a\": {\"command\": \"a\", \"env\": {\"TOKEN\": \"" + SECRET
                + "\"}}, \"h\": {\"type\": \"http\", \"url\": \"https://x\", \"headers\": {\"Authorization\": \""
                + SECRET + "\"}}}}");
        host.inHome(".config/Code/User/mcp.json", "{\"servers\": {\"b\": {\"command\": \"b\", \"env\": {\"T\": \""
                + SECRET + "\"}}}}");
        host.inHome(".codex/config.toml", "[mcp_servers.c]\ncommand = \"c\"\n[mcp_servers.c.env]\nTOKEN = \"" + SECRET
                + "\"\n");
        host.inHome(".config/zed/settings.json", "{\"context_servers\": {\"d\": {\"command\": {\"path\": \"d\", "
                + "\"env\": {\"T\": \"" + SECRET + "\"}}}}}");
        host.inHome(".config/goose/config.yaml", "extensions:\n  e:\n    type: stdio\n    cmd: e\n    enabled: true\n"
                + "    envs:\n      TOKEN: " + SECRET + "\n");

        ClientConfigurations.Read read = host.read();

        assertEquals(5, read.servers().size(), read.toString());
        assertFalse(read.toString().contains(SECRET), read.toString());
        for (ConfiguredServer server : read.servers()) {
            assertFalse(server.toString().contains(SECRET));
            assertFalse(server.launchForms().toString().contains(SECRET));
        }
    }
}
