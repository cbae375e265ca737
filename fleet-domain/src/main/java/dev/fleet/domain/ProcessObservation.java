package dev.fleet.domain;

import java.util.List;
import java.util.Objects;

/**
 * The process table as seen by the answering process: either {@link Available} (the server-looking
 * processes and every pid a registration names) or {@link Unavailable} (why it could not be read).
 * Both carry the kernel boot id, the hostname and the answerer's own pid namespace (Linux:
 * {@code pid:[4026531836]}; null when unknown). Pids mean something only within a pid namespace,
 * so a registration made in another one can be neither confirmed nor dismissed by this observation.
 */
public sealed interface ProcessObservation permits ProcessObservation.Available, ProcessObservation.Unavailable {

    String bootId();

    String hostname();

    String pidNamespace();

    /** The processes seen; none when the table could not be read. */
    List<ObservedProcess> processes();

    /** The table was read: {@code processes} is what it showed. */
    record Available(String bootId, String hostname, String pidNamespace, List<ObservedProcess> processes)
            implements ProcessObservation {
        public Available {
            processes = List.copyOf(Objects.requireNonNull(processes, "processes"));
        }
    }

    /** The table could not be read, for {@code reason}: nothing about any process is known. */
    record Unavailable(ListingReason reason, String bootId, String hostname, String pidNamespace)
            implements ProcessObservation {
        public Unavailable {
            Objects.requireNonNull(reason, "reason");
        }

        @Override
        public List<ObservedProcess> processes() {
            return List.of();
        }
    }

    /** An {@link Available} observation. */
    static ProcessObservation of(String bootId, String hostname, String pidNamespace, List<ObservedProcess> processes) {
        return new Available(bootId, hostname, pidNamespace, processes);
    }

    /** An {@link Unavailable} observation. */
    static ProcessObservation unavailable(ListingReason reason, String bootId, String hostname, String pidNamespace) {
        return new Unavailable(reason, bootId, hostname, pidNamespace);
    }
}
