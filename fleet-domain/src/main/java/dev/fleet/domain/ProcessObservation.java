package dev.fleet.domain;

import java.util.List;
import java.util.Objects;

/**
 * The process table as seen by the answering process: the server-looking processes and every
 * pid a registration names, plus the kernel boot id, the hostname and the answerer's own pid
 * namespace (Linux: {@code pid:[4026531836]}; null when unknown), or why it could not be read.
 * Pids mean something only within a pid namespace, so a registration made in another one can
 * be neither confirmed nor dismissed by this observation.
 */
public record ProcessObservation(
        boolean available,
        ListingReason reason,
        String bootId,
        String hostname,
        String pidNamespace,
        List<ObservedProcess> processes) {

    public ProcessObservation {
        if (available == (reason != null)) {
            throw new IllegalArgumentException("an observation has a reason exactly when it is unavailable");
        }
        processes = List.copyOf(Objects.requireNonNull(processes, "processes"));
    }

    public static ProcessObservation of(
            String bootId, String hostname, String pidNamespace, List<ObservedProcess> processes) {
        return new ProcessObservation(true, null, bootId, hostname, pidNamespace, processes);
    }

    public static ProcessObservation unavailable(
            ListingReason reason, String bootId, String hostname, String pidNamespace) {
        return new ProcessObservation(false, Objects.requireNonNull(reason, "reason"), bootId, hostname,
                pidNamespace, List.of());
    }
}
