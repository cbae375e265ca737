package dev.fleet.domain.verdict;

import dev.fleet.domain.ReasonCode;
import java.util.List;
import java.util.function.Predicate;

/**
 * The contract's rules for a local running row (docs/CONTRACT.md, "Classification", rules 1 to 5), listed
 * here once, in the order they are tried: the first that applies sets the row aside, stale or
 * unverified, with its reason. A row that none catches is live (rule 6). Rule 0, a row of another
 * host, is {@link RemoteRows}'; what a live row is an instance of, {@link LiveRowRule}'s.
 */
enum RunningRowRule {

    /** Rule 1: another running row names the same process and is newer; one process is one instance. */
    SUPERSEDED(StaleReason.SUPERSEDED, row -> !row.newestOnItsPid()),
    /** Rule 2: written before the host last booted. */
    PREVIOUS_BOOT(StaleReason.PREVIOUS_BOOT, RunningRow::fromPreviousBoot),
    /**
     * Rule 4b, tried before the pid is looked up: the pid names another process here, or none, so the row
     * can be neither confirmed nor dismissed.
     */
    OTHER_PID_NAMESPACE(UnverifiedReason.OTHER_PID_NAMESPACE, RunningRow::fromOtherNamespace),
    /** Rule 3: no live process has its pid. */
    PROCESS_EXITED(StaleReason.PROCESS_EXITED, row -> row.process() == null),
    /** Rule 4: live, but when the process started cannot be read. */
    PROCESS_START_UNKNOWN(UnverifiedReason.PROCESS_START_UNKNOWN, row -> row.process().startedAt() == null),
    /** Rule 4c: live, but no server process (pid 1, a sleep): a claim the observation does not confirm. */
    NOT_A_SERVER_PROCESS(UnverifiedReason.NOT_A_SERVER_PROCESS, row -> !row.process().matchesServer()),
    /** Rule 5: the process on the pid started after the row was written, or not when the row says. */
    PID_REUSED(StaleReason.PID_REUSED, RunningRow::pidReused),
    /** After rule 5: the server the member wraps has exited, so the member does not run. */
    SERVER_EXITED(StaleReason.SERVER_EXITED, RunningRow::serverExited);

    private static final List<RunningRowRule> IN_ORDER = List.of(values());

    private final ReasonCode reason;
    private final Predicate<RunningRow> applies;

    RunningRowRule(ReasonCode reason, Predicate<RunningRow> applies) {
        this.reason = reason;
        this.applies = applies;
    }

    /** The first rule that applies to {@code row}, or null when none does: the row is live. */
    static RunningRowRule firstApplying(RunningRow row) {
        for (RunningRowRule rule : IN_ORDER) {
            if (rule.applies.test(row)) {
                return rule;
            }
        }
        return null;
    }

    /** A {@link StaleReason} (reported, blocks nothing) or an {@link UnverifiedReason} (blocks the gate). */
    ReasonCode reason() {
        return reason;
    }

    boolean makesStale() {
        return reason instanceof StaleReason;
    }
}
