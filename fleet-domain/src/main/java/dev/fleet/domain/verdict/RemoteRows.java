package dev.fleet.domain.verdict;

import dev.fleet.domain.Binding;
import dev.fleet.domain.Lease;
import dev.fleet.domain.Registration;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.Text;
import java.time.Instant;
import java.util.List;

/**
 * Rule 0 of the contract (docs/CONTRACT.md, "Many hosts"): a running row of another host names a process this
 * answerer cannot observe, so it is judged by its lease alone, at the registry's clock. A row of
 * another binding belongs to another fleet and is listed nowhere (it is only counted as a row read).
 * A remote row can only add a stale entry or a remote instance: it never makes a local row live.
 */
final class RemoteRows {

    private RemoteRows() {
    }

    /** Adds each running row of {@code remote} (rows of other hosts) to {@code stale} or {@code instances}. */
    static void judge(List<Registration> remote, Binding binding, Lease lease, Instant registryNow,
            List<FlaggedRegistration> stale, List<RemoteInstance> instances) {
        for (Registration registration : remote) {
            if (!registration.isRunning() || !binding.equals(registration.binding())) {
                continue;
            }
            Instance instance = Instance.of(registration, null);
            if (lease.expired(registration.tenure().lastHeartbeatAt(), registryNow)) {
                stale.add(new FlaggedRegistration(instance, StaleReason.LEASE_EXPIRED));
            } else {
                instances.add(new RemoteInstance(instance, Text.strip(registration.process().hostId())));
            }
        }
    }

    /** The roster identity an instance claims. */
    static RosterMember identityOf(Instance instance) {
        return new RosterMember(instance.namespace(), instance.profile(), instance.role());
    }
}
