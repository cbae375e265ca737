package dev.fleet.domain.verdict;

import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.Registration;
import java.time.Instant;

/**
 * A registration as the verdict shows it: the row's facts plus the start instant observed for its
 * pid ({@code observedProcessStartedAt}, null when not observed) beside the one the row recorded
 * ({@code recordedProcessStartedAt}); the contract shows them as {@code process_started_at} and
 * {@code recorded_process_started_at}.
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
        Instant recordedProcessStartedAt) {

    static Instance of(Registration registration, ObservedProcess process) {
        return new Instance(registration.runtimeId(), registration.namespace(), registration.profile(),
                registration.role(), registration.pid(), registration.cohortId(), registration.cohortSource().text(),
                registration.startupHead(), registration.transport().text(), registration.clientProvenance().text(),
                registration.registeredAt(), registration.lastHeartbeatAt(),
                process == null ? null : process.startedAt(), registration.processStartedAt());
    }
}
