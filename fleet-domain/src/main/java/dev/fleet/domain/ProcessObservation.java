package dev.fleet.domain;

import java.util.List;
import java.util.Objects;

/**
 * The process table as seen by the answering process: the server-looking processes and every
 * pid a registration names, plus the kernel boot id and hostname, or why it could not be read.
 */
public record ProcessObservation(
        boolean available, ListingReason reason, String bootId, String hostname, List<ObservedProcess> processes) {

    public ProcessObservation {
        if (available == (reason != null)) {
            throw new IllegalArgumentException("an observation has a reason exactly when it is unavailable");
        }
        processes = List.copyOf(Objects.requireNonNull(processes, "processes"));
    }

    public static ProcessObservation of(String bootId, String hostname, List<ObservedProcess> processes) {
        return new ProcessObservation(true, null, bootId, hostname, processes);
    }

    public static ProcessObservation unavailable(ListingReason reason, String bootId, String hostname) {
        return new ProcessObservation(false, Objects.requireNonNull(reason, "reason"), bootId, hostname, List.of());
    }
}
