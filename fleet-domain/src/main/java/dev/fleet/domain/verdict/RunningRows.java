package dev.fleet.domain.verdict;

import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.Registration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The local running rows, each judged by the first {@link RunningRowRule} that applies (docs/CONTRACT.md,
 * "Classification", rules 1 to 5), or live (rule 6). A row from another pid namespace is not looked up
 * here, since its pid names another process (or none) in this namespace; one process is one instance
 * within its own pid namespace, so only rows of the same namespace supersede each other.
 */
final class RunningRows {

    /** Newest first: later {@code registered_at}, then greater {@code runtime_id}. */
    private static final Comparator<Registration> NEWEST_FIRST = Comparator
            .comparing((Registration row) -> row.tenure().registeredAt())
            .thenComparing(Registration::runtimeId)
            .reversed();

    private RunningRows() {
    }

    /**
     * What the rules made of the local running rows, each list in the order the rows came.
     *
     * @param live the rows no rule caught
     * @param stale the rows a rule with a {@link StaleReason} caught
     * @param unverified the rows a rule with an {@link UnverifiedReason} caught
     */
    record Judged(List<Registration> live, List<FlaggedRegistration> stale, List<FlaggedRegistration> unverified) {
    }

    /** What the rules made of one row. */
    private sealed interface Judgement {
    }

    private record Live(Registration registration) implements Judgement {
    }

    private record Stale(FlaggedRegistration flagged) implements Judgement {
    }

    private record Unverified(FlaggedRegistration flagged) implements Judgement {
    }

    /** Judges each running row of {@code rows} that is not another host's; {@code processes} are this host's, by pid. */
    static Judged judge(List<Registration> rows, Map<Long, ObservedProcess> processes, Answerer answerer) {
        List<Registration> running = rows.stream()
                .filter(row -> row.isRunning() && !answerer.isRemote(row))
                .toList();
        Map<PidInNamespace, Registration> newestOnPid = running.stream().collect(Collectors.toMap(
                answerer::keyOf, row -> row, (a, b) -> NEWEST_FIRST.compare(a, b) <= 0 ? a : b));
        // Compared by identity: of two identical rows on one process, only the one kept here is newest.
        List<Judgement> judgements = running.stream()
                .map(row -> judge(row, newestOnPid.get(answerer.keyOf(row)) == row, processes, answerer))
                .toList();
        return new Judged(
                Kinds.only(judgements, Live.class).stream().map(Live::registration).toList(),
                Kinds.only(judgements, Stale.class).stream().map(Stale::flagged).toList(),
                Kinds.only(judgements, Unverified.class).stream().map(Unverified::flagged).toList());
    }

    private static Judgement judge(Registration row, boolean newestOnItsPid, Map<Long, ObservedProcess> processes,
            Answerer answerer) {
        boolean otherNamespace = answerer.elsewhere(answerer.keyOf(row));
        ObservedProcess process = otherNamespace ? null : processes.get(row.process().pid());
        ObservedProcess server = otherNamespace || row.server().pid() == null ? null : processes.get(row.server().pid());
        RunningRowRule rule = RunningRowRule.firstApplying(new RunningRow(row, process, newestOnItsPid,
                otherNamespace, answerer.fromPreviousBoot(row), server));
        if (rule == null) {
            return new Live(row);
        }
        FlaggedRegistration flagged = new FlaggedRegistration(Instance.of(row, process), rule.reason());
        return rule.makesStale() ? new Stale(flagged) : new Unverified(flagged);
    }
}
