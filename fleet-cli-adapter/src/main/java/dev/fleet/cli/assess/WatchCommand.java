package dev.fleet.cli.assess;

import dev.fleet.cli.exit.ExitCodes;
import dev.fleet.cli.option.Candidates;
import dev.fleet.cli.option.IntervalOption;
import dev.fleet.cli.text.WatchText;
import dev.fleet.domain.Lease;
import dev.fleet.domain.motion.Repeat;
import dev.fleet.domain.port.in.AssessFleetInventoryUseCase;
import dev.fleet.domain.verdict.Verdict;
import dev.fleet.domain.verdict.VerdictDocument;
import java.io.PrintWriter;
import java.time.ZoneId;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code fleet watch}: the verdict now, then again each time its digest changes, assessed every
 * interval in this one warm process. Read-only, like {@code assess}: the same ports, nothing
 * written. The loop and the change detection are {@link VerdictWatch} and {@link Repeat}.
 */
@Command(name = WatchCommand.NAME,
        description = {"Print the verdict now, then again each time its digest changes (heartbeats never count).",
            "text: one line per change (time, gate or first blocked code, running/expected), then + or - for "
                    + "each anomaly that appeared or went away; jsonl: one whole verdict per line."})
public final class WatchCommand extends AssessingVerb {

    /** The verb's name, declared here once: {@code FleetCli} registers the verb by it. */
    public static final String NAME = "watch";

    enum WatchFormat { TEXT, JSONL }

    @Spec
    private CommandSpec spec;

    @Mixin
    private IntervalOption interval;

    @Option(names = "--format", defaultValue = "text", paramLabel = "text|jsonl",
            completionCandidates = WatchFormats.class,
            description = "Output format: text (default) or jsonl (the JSON of assess --format json, one per line).")
    private WatchFormat format;

    @Override
    public Integer call() throws InterruptedException {
        Repeat every = new Repeat(interval.interval(), System::nanoTime, pause -> Thread.sleep(pause.toMillis()));
        AssessFleetInventoryUseCase assessment = assessment(roster.roster(), Lease.DEFAULT);
        PrintWriter out = spec.commandLine().getOut();
        VerdictWatch watch = new VerdictWatch(assessment::assess, renderer(), text -> {
            out.print(text);
            return !out.checkError(); // flushes: a reader that has gone shows here
        });
        every.until(watch::step, null);
        return ExitCodes.READER_GONE;
    }

    private Function<Verdict, String> renderer() {
        if (format == WatchFormat.JSONL) {
            return verdict -> VerdictDocument.canonicalJson(verdict) + System.lineSeparator();
        }
        WatchText text = new WatchText(ZoneId.systemDefault());
        return text::render;
    }

    static final class WatchFormats extends Candidates.Named<WatchFormat> {
        WatchFormats() {
            super(WatchFormat.class);
        }
    }
}
