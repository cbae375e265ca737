package dev.fleet.domain.verdict;

import dev.fleet.domain.InterpretedRow;
import dev.fleet.domain.ListingReason;
import dev.fleet.domain.MalformedRegistration;
import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.ProcessObservation;
import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Roster;
import dev.fleet.domain.Snapshot;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The contract as one pure function: snapshot in, verdict out. No clock, no I/O, no randomness, and
 * the order in which rows or processes arrive never matters. Where the registry and the process table
 * were both read, each step is a function from what it reads to what it decides, in this order:
 * <ol>
 *   <li>each row interpreted: a {@link Registration}, or a {@link MalformedRegistration};</li>
 *   <li>{@link ConflictingClaims}: rows that contradict each other, set aside as malformed;</li>
 *   <li>{@link RemoteRows}: rule 0, rows of other hosts judged by their lease;</li>
 *   <li>{@link RunningRows}: local running rows by the first {@link RunningRowRule} that applies, or live;</li>
 *   <li>{@link ServedProcesses}: the processes live rows' wrapped servers serve, and the servers' own rows;</li>
 *   <li>{@link LiveRows}: live rows by the first {@link LiveRowRule} that applies, or instances of members;</li>
 *   <li>{@link UnregisteredProcesses}: server-looking processes no row accounts for;</li>
 *   <li>{@link Classification#verdict}: all of it in the contract's order, with the blocked reasons.</li>
 * </ol>
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
        return classified(snapshot, processes)
                .verdict(snapshot.roster(), registrySummary, listingSummary, observationSummary);
    }

    /** The steps, in order: each is passed only what it reads, so none sees another's half-done work. */
    private static Classification classified(Snapshot snapshot, Map<Long, ObservedProcess> processes) {
        Roster roster = snapshot.roster();
        Answerer answerer = Answerer.of(snapshot);
        List<InterpretedRow> rows = snapshot.registry().rows().stream().map(RegistryRow::interpret).toList();
        ConflictingClaims.Believed claims =
                ConflictingClaims.setAside(Kinds.only(rows, Registration.class), processes, answerer);
        List<Registration> believed = claims.believed();
        RemoteRows.Judged remote =
                RemoteRows.judge(believed, answerer, roster.binding(), snapshot.lease(), snapshot.registryNow());
        RunningRows.Judged running = RunningRows.judge(believed, processes, answerer);
        ServedProcesses served = ServedProcesses.of(running.live(), processes, roster);
        LiveRows.Assigned live = LiveRows.assign(running.live(), served, processes, roster);
        List<UnregisteredProcess> unregistered =
                UnregisteredProcesses.of(processes, believed, answerer, running, served);
        return new Classification(
                concat(Kinds.only(rows, MalformedRegistration.class), claims.conflicting()),
                concat(remote.stale(), running.stale()),
                running.unverified(), live, remote.instances(), unregistered);
    }

    private static <T> List<T> concat(List<T> first, List<T> second) {
        return Stream.concat(first.stream(), second.stream()).toList();
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
                .thenComparing(ObservedProcess::matchesServer)
                // every field, the parent too: copies differing in it alone once went to the first listed,
                // and whether a wrapper served it (so whether the gate closed) followed the listing's order
                .thenComparing(ObservedProcess::parentPid, Comparator.nullsLast(Comparator.naturalOrder()));
        Map<Long, ObservedProcess> byPid = new TreeMap<>();
        for (ObservedProcess process : processes) {
            byPid.merge(process.pid(), process, (a, b) -> preferred.compare(a, b) <= 0 ? a : b);
        }
        return byPid;
    }
}
