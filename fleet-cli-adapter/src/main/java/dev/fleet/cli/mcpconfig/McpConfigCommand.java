package dev.fleet.cli.mcpconfig;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.fleet.cli.exit.ConfigurationException;
import dev.fleet.cli.exit.ExitCodes;
import dev.fleet.cli.jar.RunningJar;
import dev.fleet.cli.option.Candidates;
import dev.fleet.cli.option.KernelPath;
import dev.fleet.cli.option.PathConverter;
import dev.fleet.cli.option.RegistryOption;
import dev.fleet.cli.option.RosterFile;
import dev.fleet.cli.option.RosterOption;
import dev.fleet.cli.output.OutputFile;
import dev.fleet.cli.serve.GitHead;
import dev.fleet.cli.serve.ServeCommand;
import dev.fleet.cli.text.JsonControlEscapes;
import dev.fleet.domain.Printable;
import dev.fleet.domain.Failures;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.observer.InvalidServerPatternException;
import dev.fleet.observer.ServerPatterns;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code fleet mcp-config}: a ready MCP client configuration, one stdio server per roster member,
 * each starting this checkout's launcher with absolute paths. Read-only: it prints and checks, and
 * neither opens the registry nor starts anything.
 */
@Command(name = McpConfigCommand.NAME,
        description = {"Print an MCP client configuration that starts every roster member with `fleet serve`.",
            "mcp-json is the shape of a project's .mcp.json (each server with \"type\": \"stdio\"); claude-desktop "
                    + "the mcpServers of claude_desktop_config.json. Paste or save it as it is."})
public final class McpConfigCommand implements Callable<Integer> {

    /** The verb's name, declared here once: {@code FleetCli} registers the verb by it. */
    public static final String NAME = "mcp-config";

    @Spec
    private CommandSpec spec;

    /** Which client's configuration file the JSON is shaped for: what this verb's {@code --format} picks. */
    enum ConfigDialect { MCP_JSON, CLAUDE_DESKTOP }

    @Option(names = "--repository-root", defaultValue = ".", paramLabel = "DIR", converter = PathConverter.class,
            description = "The git checkout the servers work in (default: the current directory).")
    private Path repositoryRoot;

    // The contract names this option --format; here it picks the configuration's dialect, never text
    // or JSON (the answer is JSON either way), so it is this verb's own option, not FormatOption.
    @Option(names = "--format", defaultValue = "mcp-json", paramLabel = "mcp-json|claude-desktop",
            completionCandidates = ConfigDialects.class,
            description = "Which client's configuration to print: mcp-json (default; .mcp.json) or "
                    + "claude-desktop (claude_desktop_config.json).")
    private ConfigDialect dialect;

    @Option(names = "--server-command", paramLabel = "'COMMAND ARG...'",
            description = "Your own MCP server, for every member to wrap (fleet serve ... -- COMMAND ARG...): one line, "
                    + "split into words as a POSIX shell would (never run by one), {profile}, {namespace} and {role} "
                    + "filled in per member. The roster patterns that find it go to stderr.")
    private String serverCommand;

    @Option(names = "--update-roster",
            description = "With --server-command: write the printed server_process_patterns into the --roster file "
                    + "(atomically; the file's own patterns and every other key kept).")
    private boolean updateRoster;

    @Mixin
    private RosterOption roster;

    @Mixin
    private RegistryOption registry;

    @Override
    public Integer call() throws JsonProcessingException {
        Roster fleet = roster.roster();
        Path root = KernelPath.of(repositoryRoot);
        if (!Files.isDirectory(root)) {
            throw new ConfigurationException("--repository-root " + root + " is not a directory");
        }
        if (GitHead.read(root).isEmpty()) {
            throw new ConfigurationException("--repository-root " + root + " is not a git checkout with a commit: "
                    + "its servers would report no startup head (run this in the checkout, or name it)");
        }
        List<String> command = launcher();
        ServerTemplate wrapped = serverCommand == null ? null : ServerTemplate.parse(serverCommand);
        Path updated = rosterToUpdate(wrapped);
        List<String> patterns = wrapped == null ? List.of() : patterns(wrapped, fleet);
        if (updated != null) {
            // Before the configuration is printed: a roster that cannot be written leaves nothing half done.
            write(updated, patterns);
        }
        Map<String, Object> servers = new LinkedHashMap<>();
        for (RosterMember member : fleet.members()) {
            Map<String, Object> server = new LinkedHashMap<>();
            if (dialect == ConfigDialect.MCP_JSON) {
                server.put("type", "stdio");
            }
            server.put("command", command.get(0));
            List<String> args = new ArrayList<>(command.subList(1, command.size()));
            args.add(ServeCommand.NAME);
            // A profile that opens with '-' would be read as an option of serve's ("--profile -h"): joined, it is a value.
            args.addAll(member.profile().startsWith("-") ? List.of("--profile=" + member.profile())
                    : List.of("--profile", member.profile()));
            args.addAll(List.of("--repository-root", root.toString()));
            // A client starts its servers with an environment of its own: what this shell chose by FLEET_ROSTER,
            // FLEET_REGISTRY or XDG_STATE_HOME is pinned as options, so every member sees the same.
            if (roster.file() != null) {
                args.addAll(List.of("--roster", roster.file().toString()));
            }
            if (registry.chosenHere()) {
                args.addAll(List.of("--registry", registry.location()));
            }
            args.add("--cohort-from-parent");
            if (wrapped != null) {
                args.add("--");
                args.addAll(wrapped.forMember(member));
            }
            server.put("args", args);
            servers.put(member.namespace(), server);
        }
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        json.getFactory().setCharacterEscapes(new JsonControlEscapes());
        spec.commandLine().getOut().println(json.writeValueAsString(Map.of("mcpServers", servers)));
        if (wrapped != null) {
            explain(wrapped, fleet, patterns, updated, root);
        }
        return ExitCodes.OK;
    }

    /**
     * The roster file {@code --update-roster} rewrites: the one {@code --roster} names (not one
     * {@code FLEET_ROSTER} names, which the operator may not know is set), checked before anything is
     * printed; null without {@code --update-roster}.
     */
    private Path rosterToUpdate(ServerTemplate wrapped) {
        if (!updateRoster) {
            return null;
        }
        if (wrapped == null) {
            throw new ConfigurationException("--update-roster writes the patterns that find --server-command: "
                    + "give the command too");
        }
        if (roster.named() == null) {
            throw new ConfigurationException("--update-roster needs --roster FILE: the roster file to write the "
                    + "patterns into");
        }
        return roster.named();
    }

    /** {@code patterns} into roster {@code file}, atomically (a temporary file in its directory, renamed over it). */
    private static void write(Path file, List<String> patterns) {
        try {
            // Written where a link points, so that a roster kept elsewhere and linked stays linked.
            Path target = file.toRealPath();
            OutputFile.write(target, RosterFile.withServerProcessPatterns(target, patterns));
        } catch (IOException e) {
            throw new ConfigurationException("--update-roster: " + Printable.of(Failures.oneLine(e)));
        }
    }

    /**
     * The roster's patterns with the server's appended (merged: none is dropped, none written twice).
     * With a registry of its own, the members are found by it: the default patterns would also find
     * another fleet's members on this host, and close this fleet's gate with them, so they give way
     * to the one that finds only the members naming this registry. Checked as a roster would check
     * them, so a pattern too long to be one is a usage error here and not a roster error later.
     */
    private List<String> patterns(ServerTemplate wrapped, Roster fleet) {
        List<String> patterns = new ArrayList<>();
        for (String pattern : fleet.serverProcessPatterns()) {
            String scoped = registry.chosenHere() && Roster.DEFAULT_SERVER_PROCESS_PATTERNS.contains(pattern)
                    ? ServerTemplate.membersPattern(registry.location()) : pattern;
            if (!patterns.contains(scoped)) {
                patterns.add(scoped);
            }
        }
        String server = wrapped.pattern(fleet.members());
        if (!patterns.contains(server)) {
            patterns.add(server);
        }
        try {
            ServerPatterns.compile(List.of(server));
        } catch (InvalidServerPatternException e) {
            throw new ConfigurationException("--server-command gives a roster pattern that cannot be one ("
                    + Printable.of(e.problem()) + "): shorten the command or the roster's names");
        }
        return List.copyOf(patterns);
    }

    /**
     * What keeps this fleet apart from any other on the host, on stderr (stdout is the configuration):
     * its registry, the pattern that finds the server, and the roster's patterns with it, as the roster
     * file's {@code server_process_patterns} is to hold them (written there with --update-roster); then
     * a warning for each way the entries may not do what the operator meant ({@code root}: the checkout,
     * where a relative path may have been meant from).
     */
    private void explain(ServerTemplate wrapped, Roster fleet, List<String> patterns, Path updated, Path root)
            throws JsonProcessingException {
        ObjectMapper json = new ObjectMapper();
        // JSON to paste, on a line of fleet's own: controls as JSON escapes (C1 and DEL too), and what Printable shows
        // of the rest (a path's U+202E) is its JSON escape as well.
        json.getFactory().setCharacterEscapes(new JsonControlEscapes());
        String list = "\"server_process_patterns\": " + Printable.of(json.writeValueAsString(patterns));
        PrintWriter err = spec.commandLine().getErr();
        err.println("fleet: this fleet's registry: " + Printable.of(registry.location()));
        err.println("fleet: the pattern that finds your server: "
                + Printable.of(json.writeValueAsString(wrapped.pattern(fleet.members()))));
        err.println(updated == null
                ? "fleet: in the roster file (--roster), so that a copy started without fleet closes the gate: " + list
                : "fleet: written into " + Printable.of(updated.toString()) + ", so that a copy started without fleet "
                        + "closes the gate: " + list);
        if (!wrapped.hasPlaceholder()) {
            err.println("fleet: warning: --server-command names no {profile}, {namespace} or {role}, so copies of it "
                    + "started for another fleet on this host cannot be told apart from this fleet's: add {profile} "
                    + "(your server may ignore the argument), e.g. --server-command '... --profile {profile}'");
        }
        List<String> relative = wrapped.relativePaths(List.of(Path.of("").toAbsolutePath(), root));
        if (!relative.isEmpty()) {
            err.println("fleet: warning: --server-command names a relative path (" + Printable.of(String.join(", ",
                    relative)) + "), but clients start servers in a working directory of their own: give it from /");
        }
        err.flush();
    }

    /**
     * This checkout's {@code fleet} launcher, found from the jar this runs from ({@link CheckoutLauncher}); a jar
     * kept elsewhere is started by this very java instead. Either way every path is absolute.
     */
    private static List<String> launcher() {
        Path jar;
        try {
            jar = RunningJar.path();
        } catch (IllegalStateException e) {
            throw new ConfigurationException("cannot tell where fleet is installed: " + Failures.oneLine(e));
        }
        Optional<Path> launcher = CheckoutLauncher.of(jar);
        if (launcher.isPresent()) {
            return List.of(launcher.get().toString());
        }
        if (!Files.isRegularFile(jar)) {
            throw new ConfigurationException("cannot tell where fleet is installed: " + jar + " is not a jar");
        }
        List<String> command = new ArrayList<>(List.of(RunningJar.javaBinary()));
        command.addAll(RunningJar.SERVING_JVM_OPTIONS);
        command.addAll(List.of("-jar", jar.toString()));
        return List.copyOf(command);
    }

    static final class ConfigDialects extends Candidates.Named<ConfigDialect> {
        ConfigDialects() {
            super(ConfigDialect.class);
        }
    }
}
