package dev.fleet.domain.verdict;

import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistrationStatus;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The processes that look like fleet servers with no live or unverified row on their pid and served by no
 * member (docs/CONTRACT.md, {@code unregistered_processes}): {@code registration_stopped} when a local
 * stopped row names the pid, else {@code no_registration}.
 */
final class UnregisteredProcesses {

    private UnregisteredProcesses() {
    }

    /**
     * The unregistered among {@code processes}, in the contract's order.
     *
     * @param rows the believed rows, of every host; only this host's stopped ones are read
     * @param running what the rules made of the local running rows
     * @param served what wrapped servers serve
     */
    static List<UnregisteredProcess> of(Map<Long, ObservedProcess> processes, List<Registration> rows,
            Answerer answerer, RunningRows.Judged running, ServedProcesses served) {
        Set<Long> accounted = Stream.concat(running.live().stream().map(row -> row.process().pid()),
                running.unverified().stream().map(flagged -> flagged.instance().pid()))
                .collect(Collectors.toSet());
        Set<Long> stoppedPids = rows.stream()
                .filter(row -> row.tenure().status() == RegistrationStatus.STOPPED && !answerer.isRemote(row))
                .map(row -> row.process().pid())
                .collect(Collectors.toSet());
        return processes.values().stream()
                .filter(process -> process.matchesServer() && !accounted.contains(process.pid())
                        && !served.isServed(process.pid()))
                .map(process -> new UnregisteredProcess(process.pid(), process.startedAt(),
                        OutsideText.commandLine(process.commandLine()), stoppedPids.contains(process.pid())
                                ? UnregisteredReason.REGISTRATION_STOPPED
                                : UnregisteredReason.NO_REGISTRATION))
                .sorted(VerdictOrder.UNREGISTERED)
                .toList();
    }
}
