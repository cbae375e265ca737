package dev.fleet.cli;

import dev.fleet.cli.text.Ansi;
import dev.fleet.cli.text.VerdictText;
import dev.fleet.domain.Lease;
import dev.fleet.domain.assessment.AssessFleetInventoryService;
import dev.fleet.domain.port.in.AssessFleetInventoryUseCase;
import dev.fleet.domain.verdict.JsonVerdict;
import dev.fleet.domain.verdict.Verdict;
import dev.fleet.observer.HostIdentity;
import dev.fleet.observer.ProcessObservers;
import java.time.Instant;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code fleet assess}: the same verdict the MCP tool gives, answered by this process. Only read
 * ports are wired here: the registry opens read-only and nothing is migrated or written.
 */
@Command(name = "assess",
        description = "Assess the fleet now. Exit 0: gate satisfied; 1: not satisfied; 2: usage or configuration error.")
final class AssessCommand extends RosterVerb {

    @Mixin
    private RegistryOption registry;

    @Option(names = "--lease", paramLabel = "DUR", converter = LeaseConverter.class,
            description = {"How long a row of another host stays live without a heartbeat,",
                "by the registry's clock (500ms, 90s, 5m, 1h). Default: 90s."})
    private Lease lease = Lease.DEFAULT;

    @Override
    public Integer call() {
        AssessFleetInventoryUseCase assessment = new AssessFleetInventoryService(roster.roster(),
                registry.reader(), ProcessObservers.forThisPlatform(), Instant::now, null,
                HostIdentity.ofThisHost(), lease);
        if (format.json()) {
            // The verdict's digest is taken while its JSON is written: one walk of the document, not two.
            JsonVerdict answer = assessment.assessWithJson();
            format.out().println(answer.json());
            return exitCode(answer.verdict());
        }
        Verdict verdict = assessment.assess();
        format.out().print(new VerdictText(Ansi.forStdout()).render(verdict, registry.shown(), registry.origin(), roster.source()));
        return exitCode(verdict);
    }

    private static int exitCode(Verdict verdict) {
        return verdict.mutationGateSatisfied() ? ExitCodes.OK : ExitCodes.NEGATIVE;
    }
}
