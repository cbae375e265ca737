package dev.fleet.cli.assess;

import dev.fleet.cli.exit.ConfigurationException;
import dev.fleet.cli.exit.ExitCodes;
import dev.fleet.cli.metrics.MetricsAnswer;
import dev.fleet.cli.option.AssessFormat;
import dev.fleet.cli.option.Candidates;
import dev.fleet.cli.option.LeaseOption;
import dev.fleet.cli.option.PathConverter;
import dev.fleet.cli.output.OutputFile;
import dev.fleet.cli.text.Ansi;
import dev.fleet.domain.Printable;
import dev.fleet.domain.Roster;
import dev.fleet.domain.port.in.AssessFleetInventoryUseCase;
import dev.fleet.domain.verdict.Verdict;
import dev.fleet.domain.verdict.VerdictDocument;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code fleet assess}: the same verdict the MCP tool gives, answered by this process. Only read
 * ports are wired here: the registry opens read-only and nothing is migrated or written (an
 * {@code --output} file is the answer, written where stdout would have gone).
 */
@Command(name = AssessCommand.NAME,
        description = "Assess the fleet now. Exit 0: gate satisfied; 1: not satisfied; 2: usage or configuration error.")
public final class AssessCommand extends AssessingVerb {

    /** The verb's name, declared here once: {@code FleetCli} registers the verb by it. */
    public static final String NAME = "assess";

    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json|prometheus|openmetrics",
            completionCandidates = Candidates.AssessFormats.class,
            description = "Output format: text (default), json, prometheus (text exposition 0.0.4) or openmetrics "
                    + "(1.0.0).")
    private AssessFormat format;

    /** The logs SQLite keeps beside a database file, each named by the file's own name and this suffix. */
    private static final List<String> SQLITE_LOGS = List.of("-wal", "-journal");

    @Option(names = "--output", paramLabel = "FILE", converter = PathConverter.class,
            description = "Write the answer to FILE atomically (a temporary file in its directory, then a rename), "
                    + "as node_exporter's textfile collector needs, instead of to standard output. A character "
                    + "device or FIFO is written into, never replaced.")
    private Path output;

    @Mixin
    private LeaseOption lease;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        if (output != null) {
            if (registry.postgres().isEmpty()) {
                refuseToReplace(registry.path(), "registry file");
                // SQLite's log beside it holds what a live server committed and no checkpoint has copied yet:
                // replaced, those rows are gone (one tab completion away: control_plane.sqlite3-wal)
                for (String log : SQLITE_LOGS) {
                    refuseToReplace(Path.of(registry.path() + log), "registry file's " + log + " log");
                }
            }
            refuseToReplace(roster.file(), "roster");
        }
        Roster fleet = roster.roster();
        AssessFleetInventoryUseCase assessment = assessment(fleet, lease.lease());
        Verdict verdict = assessment.assess();
        UnseenServers.warning(verdict, fleet).ifPresent(spec.commandLine().getErr()::println);
        String answer = format == AssessFormat.JSON ? VerdictDocument.canonicalJson(verdict) + System.lineSeparator()
                : format.metrics() ? new String(MetricsAnswer.of(verdict, fleet, format), StandardCharsets.UTF_8)
                : text(verdict, output == null ? Ansi.forStdout() : new Ansi(false));
        if (output != null) {
            return write(answer, verdict);
        }
        spec.commandLine().getOut().print(answer);
        return exitCode(verdict);
    }

    /**
     * Refuses an {@code --output} that is {@code source} (by any name), the file this answer is read from: the
     * answer would replace it, one typo away ({@code --output "$FLEET_REGISTRY"}).
     */
    private void refuseToReplace(Path source, String what) {
        try {
            if (source != null && Files.exists(output) && Files.exists(source) && Files.isSameFile(output, source)) {
                throw new ConfigurationException("--output " + Printable.of(output.toString()) + " is the " + what
                        + " this answer is read from: the answer would replace it");
            }
        } catch (IOException unknown) {
            // Not known to be the same file: writing it then tells what is wrong with it.
        }
    }

    /** The answer into {@code --output}: exit 74 with one line on stderr when it cannot be written. */
    private int write(String answer, Verdict verdict) {
        try {
            OutputFile.write(output, answer.getBytes(StandardCharsets.UTF_8));
            return exitCode(verdict);
        } catch (IOException e) {
            spec.commandLine().getErr().println("fleet: " + Printable.of(e.getMessage()));
            return ExitCodes.OUTPUT_FAILED;
        }
    }

    private static int exitCode(Verdict verdict) {
        return verdict.mutationGateSatisfied() ? ExitCodes.OK : ExitCodes.NEGATIVE;
    }
}
