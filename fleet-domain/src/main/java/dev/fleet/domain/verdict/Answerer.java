package dev.fleet.domain.verdict;

import dev.fleet.domain.HostId;
import dev.fleet.domain.ProcessObservation;
import dev.fleet.domain.Registration;
import dev.fleet.domain.Snapshot;
import dev.fleet.domain.Text;

/**
 * What a row is compared with: the answering process's own pid namespace and host (each trimmed, null
 * when unknown) and the boot its observation saw.
 */
record Answerer(String pidNamespace, String hostId, String bootId) {

    /** The answerer that took {@code snapshot}. */
    static Answerer of(Snapshot snapshot) {
        ProcessObservation observation = snapshot.observation();
        return new Answerer(Text.strippedOrNull(observation.pidNamespace()), snapshot.hostId(), observation.bootId());
    }

    /** Rule 0: a row of another host, which this answerer can judge by its lease alone. */
    boolean isRemote(Registration registration) {
        return HostId.differ(registration.process().hostId(), hostId);
    }

    /** The process a row names; a row without a recorded namespace is taken to be from the answerer's. */
    PidInNamespace keyOf(Registration registration) {
        String recorded = registration.process().pidNamespace();
        return new PidInNamespace(registration.process().pid(),
                Text.isBlank(recorded) ? pidNamespace : Text.strip(recorded));
    }

    /** Both namespaces known and different: the key's pid names another process here, or none. */
    boolean elsewhere(PidInNamespace key) {
        return pidNamespace != null && !pidNamespace.equals(key.namespace());
    }

    /** Rule 2: the row recorded a boot, the observation saw one, and they differ. */
    boolean fromPreviousBoot(Registration registration) {
        String recorded = registration.process().bootId();
        return !Text.isBlank(recorded) && !Text.isBlank(bootId)
                && !Text.strip(recorded).equalsIgnoreCase(Text.strip(bootId));
    }
}
