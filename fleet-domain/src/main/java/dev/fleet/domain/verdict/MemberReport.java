package dev.fleet.domain.verdict;

import dev.fleet.domain.RosterMember;
import java.util.List;

/** One roster member and the live instances found for it. */
public record MemberReport(RosterMember member, MemberState state, List<Instance> instances) {

    public MemberReport {
        instances = List.copyOf(instances);
    }
}
