package dev.fleet.clientconfig;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fleet.domain.host.ConfiguredServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The argvs a configured command may show (the contract, §14, "Matching a command"), resolved over a
 * real PATH directory of real executable scripts, which are read and never run.
 */
class LaunchFormsTest {

    @TempDir
    Path root;

    private static ConfiguredServer configured(TempHost host, String command, String args) {
        host.inHome(".cursor/mcp.json", "{\"mcpServers\": {\"s\": {\"command\": \"" + command + "\", \"args\": ["
                + args + "]}}}");
        return TempHost.only(host.read(), "s");
    }

    @Test
    void aBareNameFoundOnPathShowsItsAbsolutePathThenTheNameAsWritten() {
        TempHost host = new TempHost(root);
        Path binary = host.executable("srv", "\u007fELF not a script");

        ConfiguredServer server = configured(host, "srv", "\"--port\", \"1\"");

        assertEquals(List.of(List.of(binary.toString(), "--port", "1"), List.of("srv", "--port", "1")),
                server.launchForms());
    }

    @Test
    void theFirstMatchOnPathWinsAndAFileThatIsNotExecutableIsPassedOver() {
        TempHost host = new TempHost(root);
        Path first = root.resolve("first");
        host.write(first.resolve("srv"), "not executable");
        Path second = host.executable("srv", "binary");
        Map<String, String> environment = Map.of("HOME", host.home.toString(),
                "PATH", "relative/dir::" + first + ":" + host.bin);
        host.inHome(".cursor/mcp.json", "{\"mcpServers\": {\"s\": {\"command\": \"srv\"}}}");

        ConfiguredServer server = TempHost.only(new ClientConfigFiles(environment).read(List.of(), null), "s");

        assertEquals(List.of(List.of(second.toString()), List.of("srv")), server.launchForms());
    }

    @Test
    void aNameNotOnPathHasOnlyItsWrittenForm() {
        TempHost host = new TempHost(root);

        assertEquals(List.of(List.of("absent", "x")), configured(host, "absent", "\"x\"").launchForms());
    }

    @Test
    void aShebangScriptShowsItsInterpreterWithItsOneArgumentFirst() {
        TempHost host = new TempHost(root);
        Path script = host.executable("tool", "#!/bin/sh -e -x\nexec true\n");

        ConfiguredServer server = configured(host, "tool", "\"a\"");

        assertEquals(List.of(List.of(script.toString(), "a"), List.of("/bin/sh", "-e -x", script.toString(), "a"),
                List.of("tool", "a")), server.launchForms());
    }

    @Test
    void anAbsoluteScriptIsReadWhereItIs() {
        TempHost host = new TempHost(root);
        Path script = host.executable("py-server", "#!/usr/bin/python3\nprint()\n");

        ConfiguredServer server = configured(host, script.toString(), "");

        assertEquals(List.of(List.of("/usr/bin/python3", script.toString()), List.of(script.toString())),
                server.launchForms());
    }

    /**
     * The kernel runs no file without an execute bit, so its interpreter line is never read: {@code /proc/kmsg}
     * (mode 0400, regular to {@code stat}) as a project's command would hold a reader for good.
     */
    @Test
    void aFileThatIsNotExecutableHasNoInterpreterLineRead() throws Exception {
        TempHost host = new TempHost(root);
        Path script = host.executable("plain-text", "#!/usr/bin/python3\nprint()\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rw-r--r--"));

        ConfiguredServer server = configured(host, script.toString(), "");

        assertEquals(List.of(List.of(script.toString())), server.launchForms());
    }

    @Test
    void npxThroughEnvShowsNodeByNameAndByPathAndNpmExecInBothShapes() {
        TempHost host = new TempHost(root);
        Path node = host.executable("node", "binary");
        Path npx = host.executable("npx", "#!/usr/bin/env node\nrequire('npm/bin/npx-cli.js')\n");

        ConfiguredServer server = configured(host, "npx", "\"-y\", \"@scope/pkg\"");

        assertEquals(List.of(
                List.of(npx.toString(), "-y", "@scope/pkg"),
                List.of("node", npx.toString(), "-y", "@scope/pkg"),
                List.of(node.toString(), npx.toString(), "-y", "@scope/pkg"),
                List.of("npm", "exec", "@scope/pkg"),
                List.of("npm exec @scope/pkg"),
                List.of("npm", "exec", "-y", "@scope/pkg"),
                List.of("npm exec -y @scope/pkg"),
                List.of("npx", "-y", "@scope/pkg")), server.launchForms());
    }

    /**
     * A wrapper that execs the server ({@code env}, {@code nice}, {@code taskset} with its mask, in a chain) is
     * replaced by it, so the server's own forms are the entry's too: the process shows {@code srv --port 1}.
     */
    @Test
    void aWrapperThatExecsTheServerShowsTheServersForms() {
        TempHost host = new TempHost(root);
        Path binary = host.executable("srv", "binary");
        List<String> server = List.of(binary.toString(), "--port", "1");

        assertEquals(List.of(server, List.of("srv", "--port", "1"), List.of("env", "NODE_ENV=production", "srv",
                "--port", "1")), configured(host, "env", "\"NODE_ENV=production\", \"srv\", \"--port\", \"1\"")
                .launchForms());
        assertEquals(List.of(server, List.of("srv", "--port", "1"), List.of("/usr/bin/taskset", "-c", "0,1", "nice",
                "-n", "5", "ionice", "-c", "3", "chrt", "-b", "0", "srv", "--port", "1")), configured(host,
                "/usr/bin/taskset", "\"-c\", \"0,1\", \"nice\", \"-n\", \"5\", \"ionice\", \"-c\", \"3\", "
                        + "\"chrt\", \"-b\", \"0\", \"srv\", \"--port\", \"1\"").launchForms());
        assertEquals(List.of(List.of("taskset", "-p", "0x1", "srv")),
                configured(host, "taskset", "\"-p\", \"0x1\", \"srv\"").launchForms(),
                "taskset -p acts on a running process: it runs nothing");
    }

    /** As npm 11 titles itself: {@code npx --yes -p pkg bin -y} shows {@code npm exec bin -y}. */
    @Test
    void npxOwnOptionsBeforeThePackageAreNotInNpmsTitle() {
        assertEquals(List.of("@scope/pkg", "--flag", "v"), NpxTitle.withoutNpxOptions(
                List.of("-y", "@scope/pkg", "--flag", "v")));
        assertEquals(List.of("bin", "-y"), NpxTitle.withoutNpxOptions(
                List.of("--yes", "-p", "pkg", "--quiet", "bin", "-y")));
        assertEquals(List.of("pkg"), NpxTitle.withoutNpxOptions(List.of("--package=other", "--", "pkg")));
        assertEquals(List.of(), NpxTitle.withoutNpxOptions(List.of("-y", "-p")));
        assertEquals(List.of("pkg"), NpxTitle.withoutNpxOptions(List.of("pkg")));
    }

    @Test
    void envDashSSplitsItsProgramFromItsArgumentsAndDropsAssignments() {
        TempHost host = new TempHost(root);
        Path script = host.executable("srv", "#!/usr/bin/env -S NODE_OPTIONS=x deno run -A\n");

        ConfiguredServer server = configured(host, "srv", "");

        assertEquals(List.of(List.of(script.toString()), List.of("deno", "run", "-A", script.toString()),
                List.of("srv")), server.launchForms());
    }

    /**
     * uvx (astral-sh/uv) runs nothing itself: it execs the uv beside its own file, symlinks resolved, with {@code
     * tool uvx} and its arguments, and uv starts the tool as its child.
     */
    @Test
    void uvxShowsAsTheUvBesideItsRealFileRunningToolUvx() throws Exception {
        TempHost host = new TempHost(root);
        Path installed = root.resolve("opt/uv-0.9/bin");
        Files.createDirectories(installed);
        Path real = Files.writeString(installed.resolve("uvx"), "\u007fELF");
        Files.setPosixFilePermissions(real, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.createDirectories(host.bin);
        Path linked = Files.createSymbolicLink(host.bin.resolve("uvx"), real);

        ConfiguredServer server = configured(host, "uvx", "\"mcp-server-git\", \"--repository\", \"/r\"");

        assertEquals(List.of(List.of(linked.toString(), "mcp-server-git", "--repository", "/r"),
                List.of(installed.toRealPath().resolve("uv").toString(), "tool", "uvx", "mcp-server-git", "--repository",
                        "/r"),
                List.of("uvx", "mcp-server-git", "--repository", "/r")), server.launchForms());
        assertEquals(List.of(List.of("uvx", "pkg")), configured(new TempHost(root.resolve("other")), "uvx", "\"pkg\"")
                .launchForms(), "not on PATH: where its uv lies is unknown");
    }

    @Test
    void npxNotOnPathStillShowsNpmExec() {
        TempHost host = new TempHost(root);

        ConfiguredServer server = configured(host, "npx", "\"pkg\"");

        assertEquals(List.of(List.of("npm", "exec", "pkg"), List.of("npm exec pkg"), List.of("npx", "pkg")),
                server.launchForms());
    }

    @Test
    void anInterpreterLineIsParsedAsTheKernelParsesIt() {
        assertEquals(new InterpreterLine("/bin/sh", null), InterpreterLine.parse("#! /bin/sh \t\nrest").get());
        assertEquals(new InterpreterLine("/usr/bin/env", "node --flag"),
                InterpreterLine.parse("#!/usr/bin/env  node --flag  \n").get());
        assertEquals(Optional.empty(), InterpreterLine.parse("#!/bin/sh with no line end"));
        assertEquals(Optional.empty(), InterpreterLine.parse("#!\n"));
        assertEquals(Optional.empty(), InterpreterLine.parse("echo\n"));
    }

    @Test
    void onlyTheFirst256BytesAreReadForTheInterpreterLine() {
        TempHost host = new TempHost(root);
        host.executable("long", "#!/bin/" + "x".repeat(300) + "\n");

        assertEquals(List.of(List.of(host.bin.resolve("long").toString()), List.of("long")),
                configured(host, "long", "").launchForms());
    }
}
