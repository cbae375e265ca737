package dev.fleet.cli.text;

import dev.fleet.domain.Printable;
import dev.fleet.domain.ReasonCode;
import dev.fleet.domain.verdict.BlockedReason;
import dev.fleet.domain.verdict.FlaggedRegistration;
import dev.fleet.domain.verdict.Instance;
import dev.fleet.domain.verdict.MemberReport;
import dev.fleet.domain.verdict.OrphanedInstance;
import dev.fleet.domain.verdict.Verdict;
import dev.fleet.domain.verdict.VerdictLists;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * {@code fleet assess --format text}: the verdict for people. The gate and the first reason come
 * first, then a table of members, then every anomaly with what the operator should do.
 */
public final class VerdictText {

    private final Ansi ansi;

    public VerdictText(Ansi ansi) {
        this.ansi = ansi;
    }

    /**
     * @param registry the registry file the verdict read, shown so that its actions can be taken
     * @param registryOrigin where that path came from, e.g. " (from $FLEET_REGISTRY)", or ""
     * @param rosterSource where the roster came from: a file, or the built-in default
     */
    public String render(Verdict verdict, Path registry, String registryOrigin, String rosterSource) {
        return render(verdict, "registry file " + Printable.of(registry.toString()), registryOrigin, rosterSource);
    }

    /** As {@link #render(Verdict, Path, String, String)}, for a registry shown as {@code registryLine} (a URL). */
    public String render(Verdict verdict, String registryLine, String registryOrigin, String rosterSource) {
        StringBuilder text = new StringBuilder();
        if (verdict.mutationGateSatisfied()) {
            text.append(ansi.green("GATE SATISFIED")).append("  ");
        } else {
            text.append(ansi.red("GATE NOT SATISFIED")).append("  blocked by ")
                    .append(ansi.bold(verdict.blockedReason().code())).append("  ");
        }
        text.append("inventory ").append(verdict.inventoryComplete() ? "complete" : "incomplete")
                .append(String.format("  %d running of %d expected%n", verdict.runningMemberCount(),
                        verdict.expectedMemberCount()));
        text.append(String.format("cohort %s  revision %s  registry %s  listing %s%n",
                agreement(verdict.singleCohort(), verdict.cohortIds()),
                agreement(verdict.singleRevision(), verdict.startupHeads()),
                verdict.registry().readable()
                        ? count(verdict.registry().registrationCount(), "row", "rows")
                        : "unreadable (" + verdict.registry().reason().code() + ")",
                verdict.processListing().available()
                        ? count(verdict.processListing().serverProcessCount(), "server process", "server processes")
                        : "unavailable (" + verdict.processListing().reason().code() + ")"));
        text.append(String.format("%s%s%n", registryLine, registryOrigin));
        text.append(String.format("roster %s%n", Printable.of(rosterSource)));
        text.append(String.format("digest %s%n", verdict.verdictDigest()));

        memberTable(text, verdict);

        for (BlockedReason reason : verdict.blockedReasons()) {
            text.append(String.format("%n%s %s: %s%n  action: %s%n", ansi.red("!"), ansi.bold(reason.code().code()),
                    Printable.of(reason.detail()), reason.action()));
        }
        list(text, "stale registrations (reported only; they block nothing)", verdict.staleRegistrations(),
                VerdictText::flagged);
        list(text, "unverified registrations", verdict.unverifiedRegistrations(), VerdictText::flagged);
        list(text, "unexpected members", verdict.unexpectedMembers(), VerdictText::flagged);
        list(text, "orphaned instances (their client is gone)", verdict.orphanedInstances(), VerdictText::orphan);
        // Live instances on other hosts: shown with their host, since no process here can be named.
        list(text, "live on other hosts (judged by their lease)", verdict.remoteInstances(), entry -> String.format(
                "  %s  pid %d  host %s  runtime_id %s%n", name(entry.instance()), entry.instance().pid(),
                Printable.of(entry.hostId()), Printable.of(entry.instance().runtimeId())));
        list(text, "unregistered processes", verdict.unregisteredProcesses(), process -> String.format(
                "  pid %d  %s  %s%n    action: %s%n", process.pid(), process.reason().code(),
                Printable.of(process.commandLine()), process.reason().action()));
        list(text, "malformed registrations", verdict.malformedRegistrations(), row -> String.format(
                "  runtime_id %s  %s%n    action: %s%n", Printable.of(row.runtimeId()), row.reason().code(),
                row.reason().action()));
        return text.toString();
    }

    /**
     * The members and their pids, an orphan's marked (of two copies, the dead client's is the one to stop), and
     * the server a member wraps named after its own.
     */
    private static void memberTable(StringBuilder text, Verdict verdict) {
        if (verdict.members().isEmpty()) {
            return;
        }
        // An orphan's pid is marked where its member is listed: of two copies, the dead client's.
        Set<String> orphans = verdict.orphanedInstances().stream()
                .map(orphan -> orphan.instance().runtimeId()).collect(Collectors.toSet());
        Table members = new Table("MEMBER", "PROFILE", "STATE", "PIDS", "COHORT", "REVISION");
        for (MemberReport report : VerdictLists.shown(verdict.members())) {
            members.row(report.member().namespace(), report.member().profile(), report.state().code(),
                    join(report.instances(), instance -> instance.pid()
                            + (instance.serverPid() == null ? "" : "(wraps " + instance.serverPid() + ")")
                            + (orphans.contains(instance.runtimeId()) ? "(orphan)" : "")),
                    join(report.instances(), Instance::cohortId),
                    join(report.instances(), instance -> shortHead(instance.startupHead())));
        }
        text.append(System.lineSeparator()).append(members.render());
    }

    /** "1 row", "2 rows": a count with its noun in the right number. */
    public static String count(long count, String one, String many) {
        return count + " " + (count == 1 ? one : many);
    }

    /**
     * A titled list of a verdict's entries, each as {@code line} writes it, cut at the contract's cap
     * as the JSON's lists are; nothing at all, not even the title, when there is no entry.
     */
    private static <T> void list(StringBuilder text, String title, List<T> entries, Function<T, String> line) {
        if (entries.isEmpty()) {
            return;
        }
        text.append(String.format("%n%s:%n", title));
        for (T entry : VerdictLists.shown(entries)) {
            text.append(line.apply(entry));
        }
        more(text, entries);
    }

    private static String flagged(FlaggedRegistration entry) {
        Instance instance = entry.instance();
        ReasonCode reason = entry.reason();
        return String.format("  %s  pid %d%s  %s  runtime_id %s%n    action: %s%n",
                name(instance), instance.pid(), instance.serverPid() == null ? "" : " (wraps pid " + instance.serverPid()
                        + ")", reason.code(), Printable.of(instance.runtimeId()), reason.action());
    }

    private static String orphan(OrphanedInstance orphan) {
        Instance instance = orphan.instance();
        return String.format("  %s  pid %d  orphaned: client pid %d is gone  runtime_id %s%n"
                + "    action: stop pid %d yourself; no client will use it again%n", name(instance), instance.pid(),
                orphan.parentPid(), Printable.of(instance.runtimeId()), instance.pid());
    }

    /** The line that says a list was cut at the contract's cap, as the JSON's omitted_entries does. */
    private static void more(StringBuilder text, List<?> list) {
        int omitted = VerdictLists.omitted(list);
        if (omitted > 0) {
            text.append(String.format("  ... and %d more (not shown)%n", omitted));
        }
    }

    private static String name(Instance instance) {
        return Printable.of(instance.namespace() + "/" + instance.profile());
    }

    private static String agreement(Boolean single, List<String> values) {
        String known = values.isEmpty() ? "none"
                : Printable.of(String.join(",", VerdictLists.shown(values).stream().map(VerdictText::shortHead).toList()))
                        + (VerdictLists.omitted(values) > 0 ? ",... " + VerdictLists.omitted(values) + " more" : "");
        return (single == null ? "unknown" : single ? "single" : "SPLIT") + " (" + known + ")";
    }

    private static String shortHead(String value) {
        return value != null && value.matches("[0-9a-f]{40,64}") ? value.substring(0, 12) : value;
    }

    private static <T> String join(List<T> items, Function<T, String> value) {
        int omitted = VerdictLists.omitted(items);
        return items.isEmpty() ? "-" : VerdictLists.shown(items).stream().map(value).map(v -> v == null ? "?" : v)
                .collect(Collectors.joining(",")) + (omitted > 0 ? ",... " + omitted + " more" : "");
    }
}
