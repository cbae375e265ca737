package dev.fleet.domain.verdict;

import dev.fleet.domain.MalformedRegistration;
import dev.fleet.domain.RosterMember;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The blocked reasons of a classification, each with its detail, kept in {@link BlockedCode}
 * priority order whatever order they are added in. A detail names what the lists show, and stays
 * bounded whatever the registry holds.
 */
final class BlockedReasons {

    private final List<BlockedReason> reasons = new ArrayList<>();

    /** Rows that are not evidence: malformed, unregistered processes, unverified registrations (one reason per kind). */
    BlockedReasons unbelievable(List<MalformedRegistration> malformed, List<UnregisteredProcess> unregistered,
            List<FlaggedRegistration> unverified) {
        addIf(!malformed.isEmpty(), BlockedCode.MALFORMED_REGISTRATION, () -> join(malformed,
                row -> "runtime_id " + OutsideText.cap(row.runtimeId()) + " (" + row.reason().code() + ")"));
        addIf(!unregistered.isEmpty(), BlockedCode.UNREGISTERED_PROCESS, () -> join(unregistered,
                process -> "pid " + process.pid() + " (" + process.reason().code() + ")"));
        for (UnverifiedReason reason : UnverifiedReason.values()) {
            List<FlaggedRegistration> flagged = unverified.stream()
                    .filter(registration -> registration.reason() == reason).toList();
            addIf(!flagged.isEmpty(), reason.blocks(), () -> join(flagged,
                    registration -> describe(registration.instance())));
        }
        return this;
    }

    /** Instances without a cohort or a revision, and instances that do not share one. */
    BlockedReasons agreements(List<Instance> instances, Agreement cohort, Agreement revision) {
        addIf(cohort.single() == Agreement.Single.UNKNOWN && !instances.isEmpty(), BlockedCode.COHORT_UNKNOWN,
                () -> "no cohort_id: " + join(Agreement.unknown(instances, Instance::cohortId),
                        instance -> describe(instance, instance.cohortId())));
        addIf(revision.single() == Agreement.Single.UNKNOWN && !instances.isEmpty(), BlockedCode.REVISION_UNKNOWN,
                () -> "no startup_head: " + join(Agreement.unknown(instances, Instance::startupHead),
                        instance -> describe(instance, instance.startupHead())));
        addIf(cohort.single() == Agreement.Single.SPLIT, BlockedCode.COHORT_SPLIT,
                () -> "cohorts " + join(cohort.values(), OutsideText::cap));
        addIf(revision.single() == Agreement.Single.SPLIT, BlockedCode.REVISION_SPLIT,
                () -> "revisions " + join(revision.values(), OutsideText::cap));
        return this;
    }

    /**
     * Instances whose client is gone. The action names the pids to stop: the operator faced with a
     * duplicate needs to know which copy is the dead client's, not just that one is.
     */
    BlockedReasons orphans(List<OrphanedInstance> orphaned) {
        if (!orphaned.isEmpty()) {
            String pids = join(orphaned, orphan -> String.valueOf(orphan.instance().pid()));
            String action = orphaned.size() == 1
                    ? "Stop pid " + pids + " yourself: its client is gone (the MCP client that started it, pid "
                            + orphaned.get(0).parentPid() + ", no longer runs), so no client will use it again; "
                    : "Stop pids " + pids + " yourself: their clients are gone (the MCP clients that started them "
                            + "no longer run), so no client will use them again; ";
            reasons.add(new BlockedReason(BlockedCode.ORPHANED_MEMBER, join(orphaned, orphan ->
                    describe(orphan.instance()) + " (client pid " + orphan.parentPid() + " gone)"),
                    action + "this tool never terminates anything."));
        }
        return this;
    }

    /** Roster members running twice or not at all, and live registrations of no roster member. */
    BlockedReasons members(List<MemberReport> duplicates, List<RosterMember> missing,
            List<FlaggedRegistration> unexpected) {
        addIf(!duplicates.isEmpty(), BlockedCode.DUPLICATE_MEMBER, () -> join(duplicates,
                report -> name(report.member()) + " x" + report.instances().size() + " (pids "
                        + join(report.instances(), instance -> String.valueOf(instance.pid())) + ")"));
        addIf(!missing.isEmpty(), BlockedCode.MISSING_MEMBER, () -> join(missing, BlockedReasons::name));
        addIf(!unexpected.isEmpty(), BlockedCode.UNEXPECTED_MEMBER, () -> join(unexpected,
                flagged -> describe(flagged.instance()) + " (" + flagged.reason().code() + ")"));
        return this;
    }

    /** Live instances of roster members on other hosts: a fleet is its local members and none elsewhere. */
    BlockedReasons remote(List<RemoteInstance> remoteMembers) {
        addIf(!remoteMembers.isEmpty(), BlockedCode.REMOTE_MEMBER, () -> join(remoteMembers,
                remote -> describe(remote.instance()) + " on host " + OutsideText.cap(remote.hostId())));
        return this;
    }

    List<BlockedReason> inPriorityOrder() {
        reasons.sort(Comparator.comparing(BlockedReason::code));
        return reasons;
    }

    private void addIf(boolean applies, BlockedCode code, Supplier<String> detail) {
        if (applies) {
            reasons.add(new BlockedReason(code, detail.get()));
        }
    }

    /** The first {@value VerdictLists#MAX_ENTRIES} items described, and how many more there are. */
    private static <T> String join(List<T> items, Function<T, String> describe) {
        String shown = items.stream().limit(VerdictLists.MAX_ENTRIES).map(describe).collect(Collectors.joining(", "));
        int more = items.size() - VerdictLists.MAX_ENTRIES;
        return more > 0 ? shown + " and " + more + " more" : shown;
    }

    private static String name(RosterMember member) {
        return member.namespace() + "/" + member.profile();
    }

    /** An instance whose value is unknown, and why where it was there but not text (Agreement). */
    private static String describe(Instance instance, String value) {
        return describe(instance) + (Agreement.notText(value) ? " (its value is not text)" : "");
    }

    /** Names a registration in a detail; its texts come from the registry, so each is capped. */
    private static String describe(Instance instance) {
        return OutsideText.cap(instance.namespace()) + "/" + OutsideText.cap(Objects.toString(instance.profile(), "?"))
                + " pid " + instance.pid();
    }
}
