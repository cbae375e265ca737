package dev.fleet.domain.verdict;

import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.Registration;
import dev.fleet.domain.Transport;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * A live stdio instance whose client is gone (docs/CONTRACT.md, "Orphans"): the process that started it,
 * recorded in its row, no longer lives. It stays an instance of its member (duplicates, cohorts and
 * revisions still count it); this entry only says which copy belongs to a dead client.
 *
 * @param instance the instance, as its member lists it
 * @param parentPid the recorded parent's pid
 * @param parentStartedAt the recorded parent's start, or null when the row did not record one
 */
public record OrphanedInstance(Instance instance, long parentPid, Instant parentStartedAt) {

    /**
     * {@code registration}'s instance when it is orphaned: it is not served over HTTP (an HTTP server's
     * parent is no client), it recorded its parent, and no process of the same observation is that
     * parent. A process on the parent's pid is that parent unless both starts are known and further
     * apart than {@link ObservedProcess#START_TOLERANCE}: a recycled pid must not hide an orphan,
     * and an unreadable start cannot prove the client gone.
     */
    static Optional<OrphanedInstance> of(Registration registration, Instance instance,
            Map<Long, ObservedProcess> processes) {
        Long parentPid = registration.parent().pid();
        // Only a known HTTP server is exempt: a transport NULL or misspelt by another tool may be stdio.
        if (registration.transport().known() == Transport.STREAMABLE_HTTP || parentPid == null) {
            return Optional.empty();
        }
        ObservedProcess parent = processes.get(parentPid);
        Instant recorded = registration.parent().startedAt();
        boolean alive = parent != null && (recorded == null || parent.startedAt() == null
                || !ObservedProcess.startsDisagree(recorded, parent.startedAt()));
        return alive ? Optional.empty() : Optional.of(new OrphanedInstance(instance, parentPid, recorded));
    }
}
