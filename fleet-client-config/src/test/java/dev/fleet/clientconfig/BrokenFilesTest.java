package dev.fleet.clientconfig;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fleet.domain.port.out.ClientConfigurations;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file that cannot be read or parsed is one warning line naming it and saying why in a short
 * phrase, never a parser's message (which quotes the text, a secret perhaps), and the other files
 * are still read.
 */
class BrokenFilesTest {

    private static final String SECRET = "sk-live-0123456789abcdef";

    @TempDir
    Path root;

    /** The host's one good file, read whatever else is broken. */
    private static void good(TempHost host) {
        host.inHome(".cursor/mcp.json", "{\"mcpServers\": {\"good\": {\"command\": \"good-mcp\"}}}");
    }

    private static void assertOneWarning(ClientConfigurations.Read read, Path file, String reason) {
        assertEquals(List.of(file + ": " + reason), read.warnings());
        assertEquals(List.of("good"), read.servers().stream().map(server -> server.name()).toList());
        String warning = read.warnings().get(0);
        assertFalse(warning.contains(SECRET), warning);
        assertFalse(warning.contains("[Source"), warning);
        assertFalse(warning.contains("\n"), warning);
    }

    @Test
    void brokenJsonIsOneWarningWithItsLine() {
        TempHost host = new TempHost(root);
        good(host);
        Path file = host.inHome(".claude.json", "{\"mcpServers\": {\n  \"a\": {\"command\": " + SECRET + "}\n}}");

        assertOneWarning(host.read(), file, "not valid JSON (line 2)");
    }

    /** What the clients' own readers (JSON.parse, Python's json) refuse: a document, then more. */
    @Test
    void jsonWithMoreAfterItsDocumentIsOneWarning() {
        TempHost host = new TempHost(root);
        good(host);
        Path file = host.inHome(".claude.json", "{\"mcpServers\": {\"a\": {\"command\": \"a-mcp\"}}}\n"
                + "this is " + SECRET);

        assertOneWarning(host.read(), file, "not valid JSON (line 2)");
    }

    @Test
    void brokenTomlIsOneWarningWithItsLine() {
        TempHost host = new TempHost(root);
        good(host);
        Path file = host.inHome(".codex/config.toml", "[mcp_servers.a]\ncommand = \"a\"\nenv = { KEY = " + SECRET
                + " }\n");

        assertOneWarning(host.read(), file, "not valid TOML (line 3)");
    }

    @Test
    void brokenYamlIsOneWarningWithItsLine() {
        TempHost host = new TempHost(root);
        good(host);
        Path file = host.inHome(".config/goose/config.yaml", "extensions:\n  a:\n    envs: {KEY: " + SECRET
                + "\n    cmd: [\n");

        ClientConfigurations.Read read = host.read();

        assertEquals(1, read.warnings().size());
        assertTrue(read.warnings().get(0).startsWith(file + ": not valid YAML (line "), read.warnings().get(0));
        assertFalse(read.warnings().get(0).contains(SECRET));
    }

    /**
     * Aliases are followed within bounds, as serde_yaml follows them: a few kilobytes of aliases to aliased lists,
     * which would grow into billions of values, anchored values nested around one long list (kept once for each
     * anchor), an alias to no anchor and an alias inside its own anchor each make the file unreadable, and cost no
     * more than reading it.
     */
    @Test
    void aliasesPastTheirBoundsOrToNoAnchorAreOneWarning() {
        StringBuilder laughs = new StringBuilder("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for (int i = 1; i <= 9; i++) {
            laughs.append("a").append(i).append(": &a").append(i).append(" [")
                    .append(String.join(", ", java.util.Collections.nCopies(10, "*a" + (i - 1)))).append("]\n");
        }
        StringBuilder nested = new StringBuilder();
        for (int i = 0; i <= AliasFollowingParser.MAX_OPEN_ANCHORS; i++) {
            nested.append("&n").append(i).append(" [");
        }
        nested.append("x").append("]".repeat(AliasFollowingParser.MAX_OPEN_ANCHORS + 1));
        // Ten anchored maps around one list of 30,000 values, and no alias: each value kept once per anchor.
        StringBuilder kept = new StringBuilder();
        for (int i = 0; i < 10; i++) {
            kept.append("  ".repeat(i)).append('k').append(i).append(": &k").append(i).append('\n');
        }
        kept.append("  ".repeat(10)).append("v: [").append(String.join(",", java.util.Collections.nCopies(30_000, "x")))
                .append("]\n");
        for (String yaml : List.of(laughs.toString(), "extensions:\n  a: {cmd: *nothing}\n",
                "extensions: &self\n  a: {cmd: npx, args: *self}\n", "deep: " + nested + "\n", kept.toString())) {
            TempHost host = new TempHost(root.resolve(Integer.toString(yaml.hashCode())));
            good(host);
            Path file = host.inHome(".config/goose/config.yaml", yaml);

            ClientConfigurations.Read read = host.read();

            assertEquals(1, read.warnings().size(), yaml);
            assertTrue(read.warnings().get(0).startsWith(file + ": not valid YAML"), read.warnings().get(0));
        }
    }

    @Test
    void aTopLevelThatIsNoObjectIsOneWarning() {
        TempHost host = new TempHost(root);
        good(host);
        Path file = host.inHome(".gemini/settings.json", "[\"mcpServers\"]");

        assertOneWarning(host.read(), file, "not a JSON object at its top level");
    }

    @Test
    void aFileLargerThanTheBoundIsOneWarningAndNotParsed() throws IOException {
        TempHost host = new TempHost(root);
        good(host);
        Path file = host.inHome(".config/zed/settings.json", "");
        Files.write(file, new byte[ReadBounds.FILE_BYTES + 1]);

        assertOneWarning(host.read(), file, "larger than 8 MiB");
    }

    @Test
    void aDirectoryWhereAFileBelongsIsOneWarning() throws IOException {
        TempHost host = new TempHost(root);
        good(host);
        Path file = Files.createDirectories(host.home.resolve(".config/Code/User/mcp.json"));

        assertOneWarning(host.read(), file, "not a regular file");
    }

    @Test
    void aFifoWhereAFileBelongsIsOneWarningAndNeverOpened() throws Exception {
        TempHost host = new TempHost(root);
        good(host);
        Path file = host.home.resolve(".claude.json");
        Process mkfifo = new ProcessBuilder("mkfifo", file.toString()).start();
        assumeTrue(mkfifo.waitFor(60, TimeUnit.SECONDS) && mkfifo.exitValue() == 0, "mkfifo unavailable");

        // Opening a FIFO with no writer blocks: a read that opened it would never end.
        ClientConfigurations.Read read = assertTimeoutPreemptively(Duration.ofMinutes(2), () -> host.read());

        assertOneWarning(read, file, "not a regular file");
    }

    @Test
    void anUnreadableFileIsOneWarning() throws IOException {
        TempHost host = new TempHost(root);
        good(host);
        Path file = host.inHome(".config/Claude/claude_desktop_config.json", "{\"mcpServers\": {}}");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("---------"));
        // root reads any file: there is no unreadable file to test with, and the reason is moot.
        assumeFalse(Files.isReadable(file), "running as root");

        assertOneWarning(host.read(), file, "permission denied");
    }

    @Test
    void anEmptyFileIsNothingConfigured() {
        TempHost host = new TempHost(root);
        good(host);
        host.inHome(".config/goose/config.yaml", "");
        host.inHome(".claude.json", "  \n");

        ClientConfigurations.Read read = host.read();

        assertEquals(List.of(), read.warnings());
        assertEquals(1, read.servers().size());
    }

    @Test
    void entriesAClientCouldNotStartAreOneWarningForTheirFile() {
        TempHost host = new TempHost(root);
        StringBuilder args = new StringBuilder();
        for (int i = 0; i <= ReadBounds.ARGS_PER_ENTRY; i++) {
            args.append(i == 0 ? "" : ",").append('"').append(i).append('"');
        }
        Path file = host.inHome(".cursor/mcp.json", "{\"mcpServers\": {"
                + "\"ok\": {\"command\": \"ok\"},"
                + "\"no-command\": {\"args\": []},"
                + "\"args-no-list\": {\"command\": \"x\", \"args\": \"--flag\"},"
                + "\"too-many-args\": {\"command\": \"x\", \"args\": [" + args + "]},"
                + "\"too-long\": {\"command\": \"" + "x".repeat(ReadBounds.ARG_CHARS + 1) + "\"}}}");

        ClientConfigurations.Read read = host.read();

        assertEquals(List.of(file + ": 4 servers skipped (no command, or over the bounds)"), read.warnings());
        assertEquals(List.of("ok"), read.servers().stream().map(server -> server.name()).toList());
    }

    @Test
    void aFileWithMoreServersThanTheBoundGivesTheFirstOnesAndOneWarning() {
        TempHost host = new TempHost(root);
        StringBuilder servers = new StringBuilder();
        for (int i = 0; i < ReadBounds.ENTRIES_PER_FILE + 10; i++) {
            servers.append(i == 0 ? "" : ",").append("\"s").append(i).append("\": {\"command\": \"c\"}");
        }
        Path file = host.inHome(".gemini/settings.json", "{\"mcpServers\": {" + servers + "}}");

        ClientConfigurations.Read read = host.read();

        assertEquals(List.of(file + ": only its first 256 servers read"), read.warnings());
        assertEquals(ReadBounds.ENTRIES_PER_FILE, read.servers().size());
        assertEquals("s0", read.servers().get(0).name());
    }
}
