package dev.fleet.cli.host;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fleet.cli.serve.NodeMcpChild;
import dev.fleet.cli.testing.FleetJar;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A temporary HOME as {@code fleet host} reads one (the contract, §14): the MCP clients' configurations
 * in it (a writer for each of the eight kinds, at the path the client keeps it, each entry with
 * {@link #SECRET} in its env block), the client programs ({@code bin/claude}, {@code bin/codex},
 * {@code bin/gemini}) and the servers they start, copied in so that every argv names this test's own
 * directory, and an empty project directory. Nothing of the caller's HOME, XDG_CONFIG_HOME, CODEX_HOME or
 * CLAUDE_CONFIG_DIR is ever read.
 */
final class HostHome {

    private static final Path PYTHON_SOURCES = Path.of("src/test/python").toAbsolutePath();
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A value no output may show: it stands in an {@code env} block of every configured server. */
    static final String SECRET = "hostsecret-5f0c2a91";
    private static String python;

    private final Path home;
    private final Path bin;
    private final Path project;

    private HostHome(Path root) throws IOException {
        this.home = Files.createDirectories(root.resolve("home"));
        this.bin = Files.createDirectories(root.resolve("bin"));
        this.project = Files.createDirectories(root.resolve("project"));
        Files.createDirectories(home.resolve(".config"));
        Files.copy(PYTHON_SOURCES.resolve("host_server.py"), bin.resolve("host_server.py"));
    }

    static HostHome create(Path root) throws IOException {
        return new HostHome(root);
    }

    Path home() {
        return home;
    }

    Path bin() {
        return bin;
    }

    /**
     * A server's argv: the real python interpreter by its absolute path (a {@code python3} on
     * {@code PATH} may be a version manager's shim that execs the interpreter under another name),
     * this home's copy of host_server.py, the server's name and its {@code flags}
     * ({@code --ignore-eof}, {@code --ignore-term}).
     */
    List<String> server(String name, String... flags) {
        List<String> argv = new ArrayList<>(List.of(python(), bin.resolve("host_server.py").toString(), name));
        argv.addAll(List.of(flags));
        return argv;
    }

    /**
     * An {@code npx}-like wrapper: a shell script that starts {@code host_server.py NAME-child --ignore-eof}
     * on its own stdin and stdout (the client's pipes) and waits for it, so that its child outlives it
     * when it is killed. Its argv in configurations is {@code [bin/mcp-wrapper, NAME]}.
     */
    List<String> wrapper(String name) throws IOException {
        Path script = bin.resolve("mcp-wrapper");
        if (!Files.exists(script)) {
            // A shell gives an asynchronous command /dev/null for stdin before its own redirections, so
            // the stdin it is to read is kept as fd 3 first.
            Files.writeString(script, "#!/bin/sh\nexec 3<&0\n" + quote(python()) + " "
                    + quote(bin.resolve("host_server.py").toString()) + " \"$1-child\" --ignore-eof <&3 3<&- &\n"
                    + "exec 3<&-\nwait\n");
            executable(script);
        }
        return List.of(script.toString(), name);
    }

    /** {@code ~/.claude.json} with {@code entries} (name to argv) as its top-level {@code mcpServers}. */
    Path claude(Map<String, List<String>> entries) throws IOException {
        return json(".claude.json", "mcpServers", entries);
    }

    /** {@code ~/.gemini/settings.json} with {@code entries} as its {@code mcpServers}. */
    Path gemini(Map<String, List<String>> entries) throws IOException {
        return json(".gemini/settings.json", "mcpServers", entries);
    }

    /** Claude Desktop's {@code claude_desktop_config.json} under XDG_CONFIG_HOME, {@code entries} as its mcpServers. */
    Path claudeDesktop(Map<String, List<String>> entries) throws IOException {
        return json(".config/Claude/claude_desktop_config.json", "mcpServers", entries);
    }

    /** {@code ~/.cursor/mcp.json} with {@code entries} as its {@code mcpServers}. */
    Path cursor(Map<String, List<String>> entries) throws IOException {
        return json(".cursor/mcp.json", "mcpServers", entries);
    }

    /** VS Code's user {@code mcp.json} under XDG_CONFIG_HOME, {@code entries} as its {@code servers}. */
    Path vscode(Map<String, List<String>> entries) throws IOException {
        return json(".config/Code/User/mcp.json", "servers", entries);
    }

    /** Zed's {@code settings.json} under XDG_CONFIG_HOME, {@code entries} as its {@code context_servers}. */
    Path zed(Map<String, List<String>> entries) throws IOException {
        return json(".config/zed/settings.json", "context_servers", entries);
    }

    /**
     * Goose's {@code config.yaml} under XDG_CONFIG_HOME, written as Goose writes it: block YAML, one
     * enabled stdio extension per entry, its command under {@code cmd} and its secret under {@code envs}.
     */
    Path goose(Map<String, List<String>> entries) throws IOException {
        StringBuilder yaml = new StringBuilder("GOOSE_PROVIDER: openai\nextensions:\n");
        for (Map.Entry<String, List<String>> entry : entries.entrySet()) {
            List<String> argv = entry.getValue();
            // A JSON string is a YAML double-quoted scalar, and a JSON array a YAML flow sequence.
            yaml.append("  ").append(entry.getKey()).append(":\n")
                    .append("    name: ").append(entry.getKey()).append('\n')
                    .append("    type: stdio\n    enabled: true\n    timeout: 300\n")
                    .append("    cmd: ").append(JSON.writeValueAsString(argv.get(0))).append('\n')
                    .append("    args: ").append(JSON.writeValueAsString(argv.subList(1, argv.size()))).append('\n')
                    .append("    envs:\n      API_TOKEN: ").append(JSON.writeValueAsString(SECRET)).append('\n');
        }
        return write(".config/goose/config.yaml", yaml.toString());
    }

    /** Writes {@code content} to {@code relative} under this HOME, making its directories; returns the file. */
    Path write(String relative, String content) throws IOException {
        Path file = home.resolve(relative);
        Files.createDirectories(file.getParent());
        return Files.writeString(file, content);
    }

    private Path json(String relative, String serversKey, Map<String, List<String>> entries) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.set(serversKey, jsonEntries(entries));
        return write(relative, JSON.writeValueAsString(root));
    }

    /** {@code ~/.codex/config.toml} with one {@code [mcp_servers.NAME]} table per entry. */
    Path codex(Map<String, List<String>> entries) throws IOException {
        StringBuilder toml = new StringBuilder();
        for (Map.Entry<String, List<String>> entry : entries.entrySet()) {
            List<String> argv = entry.getValue();
            toml.append("[mcp_servers.").append(entry.getKey()).append("]\n")
                    .append("command = ").append(JSON.writeValueAsString(argv.get(0))).append('\n')
                    .append("args = ").append(JSON.writeValueAsString(argv.subList(1, argv.size()))).append('\n')
                    .append("env = { API_TOKEN = ").append(JSON.writeValueAsString(SECRET)).append(" }\n\n");
        }
        return write(".codex/config.toml", toml.toString());
    }

    private static ObjectNode jsonEntries(Map<String, List<String>> entries) {
        ObjectNode servers = JSON.createObjectNode();
        entries.forEach((name, argv) -> {
            ObjectNode server = servers.putObject(name);
            server.put("command", argv.get(0));
            argv.subList(1, argv.size()).forEach(server.putArray("args")::add);
            server.putObject("env").put("API_TOKEN", SECRET);
        });
        return servers;
    }

    /**
     * The client program {@code kind} (claude, codex or gemini) installed as {@code bin/KIND}: a copy of
     * host_client.py for the first two, a symbolic link to the installed host-client.mjs (the TypeScript
     * SDK's client) for gemini, so that the kernel shows {@code python3 .../bin/claude} or
     * {@code node .../bin/gemini}, as it shows the real clients.
     */
    Path clientProgram(String kind) throws IOException, InterruptedException {
        Path program = bin.resolve(kind);
        if (Files.exists(program)) {
            return program;
        }
        if (kind.equals("gemini")) {
            NodeMcpChild.requireNodeAndNpm();
            NodeMcpChild.install();
            Path installed = NodeMcpChild.INSTALLED.resolve("host-client.mjs");
            executable(installed);
            Files.createSymbolicLink(program, installed);
        } else {
            Files.copy(PYTHON_SOURCES.resolve("host_client.py"), program);
            executable(program);
        }
        return program;
    }

    /**
     * The environment of the clients and of {@code fleet host}: this HOME, and every variable that would
     * take a client's file elsewhere (XDG_CONFIG_HOME, CODEX_HOME, CLAUDE_CONFIG_DIR) set to where it is
     * under this HOME, so that the caller's own never leak in.
     */
    Map<String, String> env() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("HOME", home.toString());
        env.put("XDG_CONFIG_HOME", home.resolve(".config").toString());
        env.put("CODEX_HOME", home.resolve(".codex").toString());
        env.put("CLAUDE_CONFIG_DIR", home.toString());
        return env;
    }

    /** {@code fleet host --project DIR} with {@code options}, on this HOME. */
    HostOutput host(String... options) {
        List<String> args = new ArrayList<>(List.of("host", "--project", project.toString()));
        args.addAll(List.of(options));
        return new HostOutput(FleetJar.run(env(), args.toArray(String[]::new)));
    }

    /** The interpreter running host_server.py, by its absolute path (asked of python3 once). */
    static synchronized String python() {
        if (python == null) {
            try {
                Process probe = new ProcessBuilder("python3", "-c", "import sys; print(sys.executable)")
                        .redirectErrorStream(true).start();
                String out = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
                if (!probe.waitFor(60, TimeUnit.SECONDS) || probe.exitValue() != 0 || out.isEmpty()) {
                    throw new IllegalStateException("python3 did not say where it is: " + out);
                }
                python = out;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        return python;
    }

    private static void executable(Path file) throws IOException {
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private static String quote(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
