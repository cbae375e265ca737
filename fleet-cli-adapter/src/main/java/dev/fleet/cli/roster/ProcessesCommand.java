package dev.fleet.cli.roster;

import dev.fleet.cli.exit.ExitCodes;
import dev.fleet.domain.Printable;
import dev.fleet.cli.text.Table;
import dev.fleet.cli.text.VerdictText;
import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.ProcessObservation;
import dev.fleet.domain.Timestamps;
import dev.fleet.domain.verdict.encoding.CanonicalJson;
import dev.fleet.observer.ProcessObservers;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Command;

/** {@code fleet processes}: what the observer sees as fleet servers right now. Read-only. */
@Command(name = ProcessesCommand.NAME,
        description = "List the processes whose command line matches a server process pattern.")
public final class ProcessesCommand extends RosterVerb {

    /** The verb's name, declared here once: {@code FleetCli} registers the verb by it. */
    public static final String NAME = "processes";

    @Override
    public Integer call() {
        ProcessObservation observation = ProcessObservers.forThisPlatform()
                .observe(roster.roster().serverProcessPatterns(), Set.of());
        format.print(() -> CanonicalJson.encode(document(observation)), () -> text(observation));
        return ExitCodes.OK;
    }

    private static Map<String, Object> document(ProcessObservation observation) {
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("available", observation instanceof ProcessObservation.Available);
        tree.put("reason", observation instanceof ProcessObservation.Unavailable unavailable
                ? unavailable.reason().code() : null);
        tree.put("boot_id", observation.bootId());
        tree.put("hostname", observation.hostname());
        tree.put("processes", observation.processes().stream().<Object>map(process -> {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("pid", process.pid());
            entry.put("started_at", Timestamps.format(process.startedAt()));
            entry.put("command_line", process.commandLine());
            entry.put("user", process.user());
            entry.put("matches_server", process.matchesServer());
            return entry;
        }).toList());
        return tree;
    }

    private static String text(ProcessObservation observation) {
        if (observation instanceof ProcessObservation.Unavailable unavailable) {
            return "process table unavailable: " + unavailable.reason().code() + System.lineSeparator();
        }
        Table table = new Table("PID", "STARTED", "USER", "COMMAND");
        for (ObservedProcess process : observation.processes()) {
            table.row(process.pid(), Timestamps.format(process.startedAt()), process.user(), process.commandLine());
        }
        return String.format("host %s  boot %s  %s%n", Printable.of(observation.hostname()),
                Printable.of(observation.bootId()),
                VerdictText.count(observation.processes().size(), "server process", "server processes"))
                + table.render();
    }
}
