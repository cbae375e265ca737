package dev.fleet.cli.host;

import dev.fleet.cli.exit.ConfigurationException;
import dev.fleet.cli.exit.ExitCodes;
import dev.fleet.cli.option.Candidates;
import dev.fleet.cli.option.HostFormat;
import dev.fleet.cli.option.PathConverter;
import dev.fleet.cli.option.RosterOption;
import dev.fleet.cli.text.HostText;
import dev.fleet.domain.Printable;
import dev.fleet.domain.host.HostInventory;
import dev.fleet.domain.host.HostReport;
import dev.fleet.domain.host.HostReportDocument;
import dev.fleet.domain.port.in.HostInventoryUseCase;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code fleet host}: every MCP server on this host, by client (the contract, "Every MCP server on
 * this host"). Reads the clients' configurations and the process table, never runs or signals
 * anything: a stray's stop line is printed for the operator to run. The roster's server processes are
 * the fleet's own part ({@code fleet assess}), left out here.
 */
@Command(name = HostCommand.NAME,
        description = {"List every MCP server the clients of this host configured and started, by client: which "
                + "is current and which a stray (stale_generation, duplicate, orphaned, leftover), with the "
                + "guarded line that stops each stray. Read-only: fleet never signals anything.",
            "Exit 0: no stray; 1: strays, or none could be ruled out; 2: usage error."})
public final class HostCommand implements Callable<Integer> {

    /** The verb's name, declared here once: {@code FleetCli} registers the verb by it. */
    public static final String NAME = "host";

    @Option(names = "--strays", description = "List the strays only.")
    private boolean straysOnly;

    @Option(names = "--all", description = "Also list processes that look like MCP servers (stdin and stdout "
            + "pipes, an argv naming mcp) but match no configured entry, as unconfigured.")
    private boolean all;

    @Option(names = "--config", paramLabel = "FILE", converter = PathConverter.class,
            description = "Also read this client configuration file (repeatable; its kind told by its name or "
                    + "content).")
    private List<Path> configs = new ArrayList<>();

    @Option(names = "--project", paramLabel = "DIR", converter = PathConverter.class,
            description = "The project whose MCP files (.mcp.json, .cursor/mcp.json, .vscode/mcp.json) are read "
                    + "too. Default: the current directory.")
    private Path project;

    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json|sh",
            completionCandidates = Candidates.HostFormats.class,
            description = "Output format: text (default), json (its schema: --schema) or sh (only the guarded "
                    + "stop script of the strays: fleet host --strays --format sh | sh ends them).")
    private HostFormat format;

    @Option(names = "--schema", description = "Print the JSON Schema of --format json and exit.")
    private boolean schema;

    @Mixin
    private RosterOption roster;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (schema) {
            out.print(HostSchema.text());
            return ExitCodes.OK;
        }
        HostInventory inventory = HostInventories.forThisHost(roster.roster().serverProcessPatterns())
                .inventory(new HostInventoryUseCase.Request(configs, projectDir(), all));
        HostReport report = straysOnly ? HostAnswer.straysOf(inventory.report()) : inventory.report();
        if (format != HostFormat.JSON) {
            // In the JSON they are the document's; elsewhere stdout is for the table or the script.
            report.warnings().forEach(line -> spec.commandLine().getErr().println("fleet: warning: " + Printable.of(line)));
        }
        switch (format) {
            case JSON -> out.println(HostReportDocument.canonicalJson(report));
            case SH -> out.print(inventory.stopScript());
            case TEXT -> out.print(HostText.of(report, Instant.now()));
        }
        // A table that could not be listed proves no absence of strays: 1, as for strays (its warning says why).
        return inventory.provesNoStray() ? ExitCodes.OK : ExitCodes.NEGATIVE;
    }

    /**
     * The project's folder. The current one, by default, must have a name this locale's charset can say, as
     * {@code --project}'s must ({@link dev.fleet.cli.option.PathConverter}): read through a name with U+FFFD
     * in it, its project files would silently be absent.
     */
    private Path projectDir() {
        Path folder = (project == null ? Path.of("") : project).toAbsolutePath().normalize();
        // user.dir, not the Path: in a locale such as C, a Path says the name's U+FFFD again as '?'.
        if (project == null && System.getProperty("user.dir", "").indexOf('\uFFFD') >= 0) {
            throw new ConfigurationException("the current directory's name holds bytes that are not text in this "
                    + "locale's charset, so its project files cannot be opened; run with a UTF-8 locale, or give --project DIR");
        }
        // A mistyped --project would read no project files, in silence, or warn of each as unreadable.
        if (project != null && !Files.isDirectory(folder)) {
            throw new ConfigurationException("--project " + Printable.of(project.toString()) + ": "
                    + (Files.exists(folder) ? "not a directory" : Files.notExists(folder) ? "no such directory"
                            : "cannot be looked at (a directory above it may not be entered)"));
        }
        return folder;
    }
}
