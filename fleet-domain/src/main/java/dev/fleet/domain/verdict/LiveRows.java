package dev.fleet.domain.verdict;

import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.Registration;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The live rows by what they are an instance of (docs/CONTRACT.md, "Live registrations"): each is an
 * unexpected member, by the first {@link LiveRowRule} that applies, or an instance of its roster member,
 * orphaned or not ({@link OrphanedInstance}). A member's server registering itself is neither: it is
 * served ({@link ServedProcesses#isServersOwnRow}), and what it serves is listed under the row wrapping it.
 */
final class LiveRows {

    private LiveRows() {
    }

    /**
     * Where the live rows went, each list in the order the rows came.
     *
     * @param instances each roster member's instances; a member without any is absent
     * @param unexpected the rows a {@link LiveRowRule} caught
     * @param orphaned the instances whose client is gone, which {@code instances} lists too
     */
    record Assigned(Map<RosterMember, List<Instance>> instances, List<FlaggedRegistration> unexpected,
            List<OrphanedInstance> orphaned) {

        List<Instance> instancesOf(RosterMember member) {
            return instances.getOrDefault(member, List.of());
        }
    }

    /** Where one live row went. */
    private sealed interface Place {
    }

    private record Unexpected(FlaggedRegistration flagged) implements Place {
    }

    /** An orphan stays an instance: it still counts for duplicates, cohorts and revisions. */
    private record MemberInstance(RosterMember member, Instance instance, Optional<OrphanedInstance> orphan)
            implements Place {
    }

    /** Assigns each row of {@code live}; {@code served} says what wrapped servers serve among {@code processes}. */
    static Assigned assign(List<Registration> live, ServedProcesses served, Map<Long, ObservedProcess> processes,
            Roster roster) {
        List<Place> places = live.stream()
                .filter(row -> !served.isServersOwnRow(row))
                .map(row -> place(row, served, processes, roster))
                .toList();
        List<MemberInstance> instances = Kinds.only(places, MemberInstance.class);
        return new Assigned(
                instances.stream().collect(Collectors.groupingBy(MemberInstance::member,
                        Collectors.mapping(MemberInstance::instance, Collectors.toList()))),
                Kinds.only(places, Unexpected.class).stream().map(Unexpected::flagged).toList(),
                instances.stream().flatMap(instance -> instance.orphan().stream()).toList());
    }

    private static Place place(Registration row, ServedProcesses served, Map<Long, ObservedProcess> processes,
            Roster roster) {
        Instance instance = Instance.of(row, processes.get(row.process().pid()), served.listedUnder(row));
        LiveRowRule rule = LiveRowRule.firstApplying(row, roster);
        return rule != null
                ? new Unexpected(new FlaggedRegistration(instance, rule.reason()))
                : new MemberInstance(row.identity(), instance, OrphanedInstance.of(row, instance, processes));
    }
}
