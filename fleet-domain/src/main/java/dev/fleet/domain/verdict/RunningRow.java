package dev.fleet.domain.verdict;

import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.Registration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * A local running row as the contract's rules ({@link RunningRowRule}) see it.
 *
 * @param registration the row
 * @param process the live process on its pid, or null when there is none, or when the pid is another
 *     namespace's and so names no process here
 * @param newestOnItsPid no other running row names the same process and is newer (later
 *     {@code registered_at}, then greater {@code runtime_id})
 * @param fromOtherNamespace the row's pid namespace and the answerer's are both known and differ
 * @param fromPreviousBoot the row's boot and the observation's are both known and differ
 * @param server the live process on the pid of the server the row wraps, or null when there is none (or the
 *     row wraps none)
 */
record RunningRow(Registration registration, ObservedProcess process, boolean newestOnItsPid,
        boolean fromOtherNamespace, boolean fromPreviousBoot, ObservedProcess server) {

    /** Started after it registered (to the whole second), or not at the start the row recorded. */
    boolean pidReused() {
        boolean startedAfterRegistering =
                process.startedAt().truncatedTo(ChronoUnit.SECONDS).isAfter(registration.tenure().registeredAt());
        boolean startDisagrees = registration.process().startedAt() != null
                && ObservedProcess.startsDisagree(registration.process().startedAt(), process.startedAt());
        return startedAfterRegistering || startDisagrees;
    }

    /**
     * It wraps a server ({@code server_pid}) and no live process is that server: none has the pid (a
     * zombie is observed as none), or, where the row recorded the server's start, the one that has it did
     * not start within {@link ObservedProcess#START_TOLERANCE} of it (or cannot say when it started).
     */
    boolean serverExited() {
        if (registration.server().pid() == null) {
            return false;
        }
        Instant recorded = registration.server().startedAt();
        return server == null || (recorded != null
                && (server.startedAt() == null || ObservedProcess.startsDisagree(recorded, server.startedAt())));
    }
}
