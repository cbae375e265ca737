package dev.fleet.domain.verdict;

import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.Registration;
import java.time.Instant;
import java.util.List;

/**
 * A registration as the verdict shows it: the row's facts plus the start instant observed for its
 * pid ({@code observedProcessStartedAt}, null when not observed) beside the one the row recorded
 * ({@code recordedProcessStartedAt}); the contract shows them as {@code process_started_at} and
 * {@code recorded_process_started_at}. {@code serverPid} and {@code serverCommand} (secrets masked) are
 * the server the member wraps, null when it wraps none; {@code servedPids}, sorted, the server-looking
 * processes a live registration serves ({@link ServedProcesses}), empty for every other entry.
 */
public record Instance(
        String runtimeId,
        String namespace,
        String profile,
        String role,
        long pid,
        String cohortId,
        String cohortSource,
        String startupHead,
        String transport,
        String clientProvenance,
        Instant registeredAt,
        Instant lastHeartbeatAt,
        Instant observedProcessStartedAt,
        Instant recordedProcessStartedAt,
        Long serverPid,
        String serverCommand,
        List<Long> servedPids) {

    public Instance {
        servedPids = List.copyOf(servedPids);
    }

    /** An entry that serves nothing: a flagged row, or an instance whose row wraps no server. */
    static Instance of(Registration registration, ObservedProcess process) {
        return of(registration, process, List.of());
    }

    /** The instance of {@code registration}, whose process is {@code process} (or none), serving {@code served}. */
    static Instance of(Registration registration, ObservedProcess process, List<Long> served) {
        return new Instance(registration.runtimeId(), registration.namespace(), registration.profile(),
                registration.role(), registration.process().pid(), registration.cohortId(),
                registration.cohortSource().text(),
                registration.startupHead(), registration.transport().text(), registration.clientProvenance().text(),
                registration.tenure().registeredAt(), registration.tenure().lastHeartbeatAt(),
                process == null ? null : process.startedAt(), registration.process().startedAt(),
                registration.server().pid(), OutsideText.commandLine(registration.server().command()), served);
    }
}
