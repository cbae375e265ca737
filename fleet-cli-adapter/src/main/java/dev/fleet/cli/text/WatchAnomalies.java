package dev.fleet.cli.text;

import dev.fleet.domain.Printable;
import dev.fleet.domain.verdict.BlockedCode;
import dev.fleet.domain.verdict.BlockedReason;
import dev.fleet.domain.verdict.FlaggedRegistration;
import dev.fleet.domain.verdict.Instance;
import dev.fleet.domain.verdict.MemberReport;
import dev.fleet.domain.verdict.MemberState;
import dev.fleet.domain.verdict.Verdict;
import dev.fleet.domain.verdict.VerdictLists;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The anomalies of a verdict as {@code fleet watch} shows them, one line each, and what appeared
 * and went away between two verdicts. An anomaly is an entry of a verdict list (a missing or
 * duplicate member, an unexpected, stale, unverified or malformed registration, an orphaned
 * instance, an unregistered process) or a blocked reason that no list entry stands for (an unreadable registry, a cohort
 * split, ...). Lines are {@link Printable}, and each list counts only its shown entries.
 */
final class WatchAnomalies {

    /** Blocked codes whose entries are already lines of their own. */
    private static final Set<BlockedCode> LISTED = EnumSet.of(BlockedCode.MISSING_MEMBER, BlockedCode.DUPLICATE_MEMBER,
            BlockedCode.UNEXPECTED_MEMBER, BlockedCode.REGISTRATION_UNCONFIRMED, BlockedCode.MALFORMED_REGISTRATION,
            BlockedCode.UNREGISTERED_PROCESS, BlockedCode.ORPHANED_MEMBER);

    private WatchAnomalies() {
    }

    /** The verdict's anomalies, in the verdict's order. */
    static Set<String> of(Verdict verdict) {
        Set<String> lines = new LinkedHashSet<>();
        for (MemberReport report : VerdictLists.shown(verdict.members())) {
            String name = report.member().namespace() + "/" + report.member().profile();
            if (report.state() == MemberState.MISSING) {
                lines.add("missing member " + name);
            } else if (report.state() == MemberState.DUPLICATE) {
                lines.add("duplicate member " + name + ": pids " + String.join(", ", report.instances().stream()
                        .map(instance -> String.valueOf(instance.pid())).toList()));
            }
        }
        flagged(lines, "unexpected member", verdict.unexpectedMembers());
        flagged(lines, "stale registration", verdict.staleRegistrations());
        flagged(lines, "unverified registration", verdict.unverifiedRegistrations());
        VerdictLists.shown(verdict.malformedRegistrations()).forEach(row -> lines.add(
                "malformed registration runtime_id " + row.runtimeId() + ": " + row.reason().code()));
        VerdictLists.shown(verdict.orphanedInstances()).forEach(orphan -> lines.add("orphaned instance "
                + orphan.instance().namespace() + "/" + orphan.instance().profile() + " pid " + orphan.instance().pid()
                + ": its client pid " + orphan.parentPid() + " is gone"));
        VerdictLists.shown(verdict.unregisteredProcesses()).forEach(process -> lines.add(
                "unregistered process pid " + process.pid() + ": " + process.reason().code()));
        for (BlockedReason reason : verdict.blockedReasons()) {
            if (!LISTED.contains(reason.code())) {
                lines.add(reason.code().code() + ": " + reason.detail());
            }
        }
        Set<String> printable = new LinkedHashSet<>();
        lines.forEach(line -> printable.add(Printable.of(line)));
        return printable;
    }

    /** {@code "+ line"} for each anomaly of {@code now} not in {@code before}, then {@code "- line"} for each gone. */
    static List<String> diff(Set<String> before, Set<String> now) {
        List<String> changes = new ArrayList<>();
        now.stream().filter(line -> !before.contains(line)).forEach(line -> changes.add("+ " + line));
        before.stream().filter(line -> !now.contains(line)).forEach(line -> changes.add("- " + line));
        return changes;
    }

    private static void flagged(Set<String> lines, String kind, List<FlaggedRegistration> entries) {
        for (FlaggedRegistration entry : VerdictLists.shown(entries)) {
            Instance instance = entry.instance();
            lines.add(kind + " " + instance.namespace() + "/" + instance.profile() + " pid " + instance.pid() + ": "
                    + entry.reason().code());
        }
    }
}
