package dev.fleet.domain.verdict;

import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.Registration;
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
 */
record RunningRow(Registration registration, ObservedProcess process, boolean newestOnItsPid,
        boolean fromOtherNamespace, boolean fromPreviousBoot) {

    /** Started after it registered (to the whole second), or not at the start the row recorded. */
    boolean pidReused() {
        boolean startedAfterRegistering =
                process.startedAt().truncatedTo(ChronoUnit.SECONDS).isAfter(registration.registeredAt());
        boolean startDisagrees = registration.processStartedAt() != null
                && ObservedProcess.startsDisagree(registration.processStartedAt(), process.startedAt());
        return startedAfterRegistering || startDisagrees;
    }
}
