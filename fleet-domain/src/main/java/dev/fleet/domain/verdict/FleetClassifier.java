package dev.fleet.domain.verdict;

import dev.fleet.domain.ListingReason;
import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.ProcessObservation;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.Snapshot;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The contract as one pure function: snapshot in, verdict out. No clock, no I/O, no randomness, and
 * the order in which rows or processes arrive never matters.
 */
public final class FleetClassifier {

    private FleetClassifier() {
    }

    /** The snapshot's verdict, sealed with its digest ({@link VerdictDigest}). */
    public static Verdict classify(Snapshot snapshot) {
        Verdict verdict = unsealed(snapshot);
        return verdict.withDigest(VerdictDigest.of(verdict));
    }

    /** The verdict without its digest. */
    private static Verdict unsealed(Snapshot snapshot) {
        RegistryRead registry = snapshot.registry();
        ProcessObservation observation = snapshot.observation();
        Map<Long, ObservedProcess> processes = indexByPid(observation.processes());
        RegistrySummary registrySummary = registry instanceof RegistryRead.Unreadable unreadable
                ? new RegistrySummary(false, unreadable.reason(), unreadable.detail(), 0)
                : new RegistrySummary(true, null, null, registry.rows().size());
        ListingReason unavailable = observation instanceof ProcessObservation.Unavailable u ? u.reason() : null;
        ListingSummary listingSummary = new ListingSummary(unavailable == null, unavailable,
                (int) processes.values().stream().filter(ObservedProcess::matchesServer).count());
        ObservationSummary observationSummary = new ObservationSummary(snapshot.observedAt(), observation.bootId(),
                observation.hostname(), snapshot.hostId(), observation.pidNamespace(), snapshot.registryPath(),
                snapshot.answeredBy());

        if (!registry.readable() || unavailable != null) {
            return nothingEstablished(snapshot, registrySummary, listingSummary, observationSummary);
        }
        return new Classification(snapshot, processes)
                .verdict(registrySummary, listingSummary, observationSummary);
    }

    private static Verdict nothingEstablished(Snapshot snapshot, RegistrySummary registry, ListingSummary listing,
            ObservationSummary observation) {
        List<BlockedReason> reasons = new ArrayList<>();
        if (!registry.readable()) {
            // The path is in the observation: in the detail it would make the digest depend on how
            // each answerer spells the path to the same file.
            String detail = "registry " + registry.reason().code()
                    + (registry.detail() == null ? "" : ": " + OutsideText.cap(registry.detail()));
            reasons.add(new BlockedReason(BlockedCode.REGISTRY_UNREADABLE, detail, registry.reason().action()));
        }
        if (!listing.available()) {
            reasons.add(new BlockedReason(BlockedCode.PROCESS_LISTING_UNAVAILABLE,
                    "process table " + listing.reason().code()));
        }
        return Verdict.builder()
                .blockedReasons(reasons)
                .expectedMemberCount(snapshot.roster().members().size())
                .registry(registry)
                .processListing(listing)
                .observation(observation)
                .build();
    }

    /** A pid can name one process at a time; should a listing repeat one, the choice must not depend on order. */
    private static Map<Long, ObservedProcess> indexByPid(List<ObservedProcess> processes) {
        Comparator<ObservedProcess> preferred = Comparator
                .comparing(ObservedProcess::startedAt, Comparator.nullsLast(Comparator.naturalOrder()))
                .thenComparing(ObservedProcess::commandLine, Comparator.nullsLast(Comparator.naturalOrder()))
                .thenComparing(ObservedProcess::user, Comparator.nullsLast(Comparator.naturalOrder()))
                .thenComparing(ObservedProcess::matchesServer);
        Map<Long, ObservedProcess> byPid = new TreeMap<>();
        for (ObservedProcess process : processes) {
            byPid.merge(process.pid(), process, (a, b) -> preferred.compare(a, b) <= 0 ? a : b);
        }
        return byPid;
    }
}
