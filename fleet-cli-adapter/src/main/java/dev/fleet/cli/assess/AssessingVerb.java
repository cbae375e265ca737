package dev.fleet.cli.assess;

import dev.fleet.cli.option.RegistryOption;
import dev.fleet.cli.option.RosterOption;
import dev.fleet.cli.text.Ansi;
import dev.fleet.cli.text.VerdictText;
import dev.fleet.domain.Lease;
import dev.fleet.domain.Roster;
import dev.fleet.domain.assessment.AssessFleetInventoryService;
import dev.fleet.domain.port.in.AssessFleetInventoryUseCase;
import dev.fleet.domain.verdict.Verdict;
import dev.fleet.observer.HostIdentity;
import dev.fleet.observer.ProcessObservers;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;

/**
 * The verbs that assess the fleet from outside it ({@code assess}, {@code watch}, {@code wait},
 * {@code dashboard}): their
 * {@code --roster} and {@code --registry}, and the assessment they wire from them, declared here once.
 * Only read ports are wired: the registry opens read-only, nothing is migrated or written, and the
 * verdict is answered by this process, no member. ({@code serve} assesses too, but as a member of
 * the fleet that registers itself, so it wires its own.)
 */
abstract class AssessingVerb implements Callable<Integer> {

    @Mixin
    RosterOption roster;

    @Mixin
    RegistryOption registry;

    /** The read-only assessment of {@code fleet}, a row of another host live for {@code lease}. */
    AssessFleetInventoryUseCase assessment(Roster fleet, Lease lease) {
        return new AssessFleetInventoryService(fleet, registry.evidence(), ProcessObservers.forThisPlatform(),
                Instant::now, null, HostIdentity.ofThisHost(), lease);
    }

    /** The verdict as text for people, naming the registry and the roster it was assessed from. */
    String text(Verdict verdict, Ansi ansi) {
        return new VerdictText(ansi).render(verdict, registry.shown(), registry.origin(), roster.source());
    }
}
