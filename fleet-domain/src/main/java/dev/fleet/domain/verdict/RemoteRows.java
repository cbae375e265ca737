package dev.fleet.domain.verdict;

import dev.fleet.domain.Binding;
import dev.fleet.domain.Lease;
import dev.fleet.domain.Registration;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.Text;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Rule 0 of the contract (docs/CONTRACT.md, "Many hosts"): a running row of another host names a process this
 * answerer cannot observe, so it is judged by its lease alone, at the registry's clock. A row of
 * another binding belongs to another fleet and is listed nowhere (it is only counted as a row read).
 * A remote row can only add a stale entry or a remote instance: it never makes a local row live.
 */
final class RemoteRows {

    private RemoteRows() {
    }

    /**
     * What rule 0 made of the rows of other hosts.
     *
     * @param stale the rows whose lease expired
     * @param instances the rows whose lease holds
     */
    record Judged(List<FlaggedRegistration> stale, List<RemoteInstance> instances) {
    }

    /** Judges each running row of {@code binding} that {@code answerer} sees as another host's. */
    static Judged judge(List<Registration> rows, Answerer answerer, Binding binding, Lease lease,
            Instant registryNow) {
        Map<Boolean, List<Registration>> byLeaseExpired = rows.stream()
                .filter(row -> answerer.isRemote(row) && row.isRunning() && binding.equals(row.binding()))
                .collect(Collectors.partitioningBy(row -> lease.expired(row.tenure().lastHeartbeatAt(), registryNow)));
        return new Judged(
                byLeaseExpired.get(true).stream()
                        .map(row -> new FlaggedRegistration(Instance.of(row, null), StaleReason.LEASE_EXPIRED))
                        .toList(),
                byLeaseExpired.get(false).stream()
                        .map(row -> new RemoteInstance(Instance.of(row, null), Text.strip(row.process().hostId())))
                        .toList());
    }

    /** The roster identity an instance claims. */
    static RosterMember identityOf(Instance instance) {
        return new RosterMember(instance.namespace(), instance.profile(), instance.role());
    }
}
