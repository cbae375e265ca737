package dev.fleet.metrics;

import dev.fleet.domain.Code;
import dev.fleet.domain.verdict.Verdict;
import java.util.function.ToIntFunction;

/**
 * The {@code kind} label of {@code fleet_anomalies} (docs/CONTRACT.md, "Metrics"): each kind counts the entries of one
 * anomaly list of the verdict, counted whole (the JSON shows at most 100 entries of a list; the
 * gauge counts them all).
 */
enum AnomalyKind implements Code {
    /** Roster members with no instance: {@code missing_members}. */
    MISSING(verdict -> verdict.missingMembers().size()),
    /** Roster members with two or more instances: {@code duplicate_members}. */
    DUPLICATE(verdict -> verdict.duplicateMembers().size()),
    UNEXPECTED(verdict -> verdict.unexpectedMembers().size()),
    STALE(verdict -> verdict.staleRegistrations().size()),
    UNVERIFIED(verdict -> verdict.unverifiedRegistrations().size()),
    MALFORMED(verdict -> verdict.malformedRegistrations().size()),
    UNREGISTERED(verdict -> verdict.unregisteredProcesses().size()),
    /** Live stdio instances whose client is gone: {@code orphaned_instances}. */
    ORPHANED(verdict -> verdict.orphanedInstances().size());

    private final ToIntFunction<Verdict> count;

    AnomalyKind(ToIntFunction<Verdict> count) {
        this.count = count;
    }

    /** How many entries of this kind {@code verdict} lists. */
    int count(Verdict verdict) {
        return count.applyAsInt(verdict);
    }
}
