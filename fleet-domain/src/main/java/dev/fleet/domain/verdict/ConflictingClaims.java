package dev.fleet.domain.verdict;

import dev.fleet.domain.MalformedReason;
import dev.fleet.domain.MalformedRegistration;
import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.Registration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Rows that contradict each other are malformed {@code conflicting_claims}, every one of them
 * (docs/CONTRACT.md, "Malformed"): the same runtime_id with different content, or running rows that
 * name one live process (same pid, same pid namespace) as different members. Neither claim can be
 * preferred without choosing by the order the rows arrived in (or by {@code superseded}, which would
 * let the one read last open the gate).
 */
final class ConflictingClaims {

    private ConflictingClaims() {
    }

    /**
     * The rows of {@code interpretable} that contradict no other, and a malformed entry for each one that
     * does.
     *
     * @param believed the rows that conflict with none, in the order they came
     * @param conflicting one {@code conflicting_claims} entry per conflicting row, in the order they came
     */
    record Believed(List<Registration> believed, List<MalformedRegistration> conflicting) {
    }

    /** Sets aside every row of {@code interpretable} that contradicts another; {@code processes} says which pids live. */
    static Believed setAside(List<Registration> interpretable, Map<Long, ObservedProcess> processes,
            Answerer answerer) {
        Set<Registration> conflicting = Collections.newSetFromMap(new IdentityHashMap<>());
        Map<String, List<Registration>> byRuntimeId = new HashMap<>();
        Map<PidInNamespace, List<Registration>> runningOnLivePid = new HashMap<>();
        for (Registration registration : interpretable) {
            byRuntimeId.computeIfAbsent(registration.runtimeId(), id -> new ArrayList<>()).add(registration);
            if (registration.isRunning() && processes.containsKey(registration.process().pid())
                    && !answerer.isRemote(registration)) {
                PidInNamespace key = answerer.keyOf(registration);
                if (!answerer.elsewhere(key)) {
                    runningOnLivePid.computeIfAbsent(key, k -> new ArrayList<>()).add(registration);
                }
            }
        }
        for (List<Registration> twins : byRuntimeId.values()) {
            if (twins.stream().distinct().count() > 1) {
                conflicting.addAll(twins);
            }
        }
        for (List<Registration> claims : runningOnLivePid.values()) {
            if (claims.stream().map(ConflictingClaims::claimedMember).distinct().count() > 1) {
                conflicting.addAll(claims);
            }
        }
        return new Believed(
                interpretable.stream().filter(registration -> !conflicting.contains(registration)).toList(),
                interpretable.stream().filter(conflicting::contains)
                        .map(registration -> new MalformedRegistration(registration.runtimeId(),
                                MalformedReason.CONFLICTING_CLAIMS))
                        .toList());
    }

    /** What a row claims its process is: a member of a fleet bound to a repository. */
    private static List<Object> claimedMember(Registration registration) {
        return List.of(registration.identity(), registration.binding());
    }
}
