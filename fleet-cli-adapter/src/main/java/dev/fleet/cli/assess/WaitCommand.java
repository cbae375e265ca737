package dev.fleet.cli.assess;

import dev.fleet.cli.exit.ConfigurationException;
import dev.fleet.cli.exit.ExitCodes;
import dev.fleet.cli.option.Candidates;
import dev.fleet.cli.option.DurationConverter;
import dev.fleet.cli.option.FormatOption;
import dev.fleet.cli.option.IntervalOption;
import dev.fleet.cli.text.Ansi;
import dev.fleet.domain.Lease;
import dev.fleet.domain.motion.Repeat;
import dev.fleet.domain.motion.WaitCondition;
import dev.fleet.domain.port.in.AssessFleetInventoryUseCase;
import dev.fleet.domain.verdict.Verdict;
import dev.fleet.domain.verdict.VerdictDocument;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code fleet wait --for gate|change}: returns as soon as the condition holds, with that verdict;
 * at the timeout, the last verdict and exit 1. The kubectl-wait habit, for scripts. Read-only, like
 * {@code assess}. The loop and the condition are {@link VerdictWait} and {@link WaitCondition}.
 */
@Command(name = WaitCommand.NAME,
        description = {"Wait until the gate is satisfied (--for gate) or the digest changes (--for change), "
                + "then print that verdict.", "Example: fleet wait --for gate --timeout 5m && deploy"})
public final class WaitCommand extends AssessingVerb {

    /** The verb's name, declared here once: {@code FleetCli} registers the verb by it. */
    public static final String NAME = "wait";

    static final Duration MOST = Duration.ofHours(24);

    @Option(names = "--for", required = true, paramLabel = "gate|change", completionCandidates = Conditions.class,
            description = "gate: the mutation gate is satisfied; change: the digest differs from --from "
                    + "(or from the first verdict's).")
    private WaitCondition.Kind condition;

    @Option(names = "--from", paramLabel = "sha256:HEX",
            description = "With --for change: the digest to move away from (a verdict_digest).")
    private String from;

    @Option(names = "--timeout", defaultValue = "60s", paramLabel = "DUR", converter = DurationConverter.class,
            description = "How long to wait: up to 24h (default: ${DEFAULT-VALUE}); then exit 1.")
    private Duration timeout;

    @Mixin
    private FormatOption format;

    @Mixin
    private IntervalOption interval;

    @Override
    public Integer call() throws InterruptedException {
        Duration limit = DurationConverter.within("--timeout", timeout, Duration.ZERO, MOST);
        Repeat every = new Repeat(interval.interval(), System::nanoTime, pause -> Thread.sleep(pause.toMillis()));
        AssessFleetInventoryUseCase assessment = assessment(roster.roster(), Lease.DEFAULT);
        VerdictWait.Outcome outcome = new VerdictWait(assessment::assess, condition(), every).await(limit);
        Verdict last = outcome.last();
        format.print(() -> VerdictDocument.canonicalJson(last), () -> text(last, Ansi.forStdout()));
        return outcome.held() ? ExitCodes.OK : ExitCodes.NEGATIVE;
    }

    private WaitCondition condition() {
        if (condition == WaitCondition.Kind.GATE) {
            if (from != null) {
                throw new ConfigurationException("--from applies to --for change only");
            }
            return WaitCondition.gate();
        }
        try {
            return WaitCondition.change(from);
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(e.getMessage());
        }
    }

    static final class Conditions extends Candidates.Named<WaitCondition.Kind> {
        Conditions() {
            super(WaitCondition.Kind.class);
        }
    }
}
