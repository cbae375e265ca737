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
     * Moves every conflicting row of {@code interpretable} to {@code malformed} and every other to
     * {@code registrations}, in the order they came.
     */
    static void setAside(List<Registration> interpretable, Map<Long, ObservedProcess> processes, Answerer answerer,
            List<Registration> registrations, List<MalformedRegistration> malformed) {
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
        for (Registration registration : interpretable) {
            if (conflicting.contains(registration)) {
                malformed.add(new MalformedRegistration(registration.runtimeId(), MalformedReason.CONFLICTING_CLAIMS));
            } else {
                registrations.add(registration);
            }
        }
    }

    /** What a row claims its process is: a member of a fleet bound to a repository. */
    private static List<Object> claimedMember(Registration registration) {
        return List.of(registration.identity(), registration.binding());
    }
}
