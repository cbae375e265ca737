package dev.fleet.domain.verdict;

/**
 * One reason the gate is closed: its code, which members or pids it concerns, and what to do. The
 * action is the code's own, except where the operator must be told which process to act on
 * ({@code orphaned_member} names the pids to stop) or what to fix ({@code registry_unreadable} takes the
 * registry reason's: a file's, or a database's).
 */
public record BlockedReason(BlockedCode code, String detail, String action) {

    /** A reason whose action is its code's. */
    public BlockedReason(BlockedCode code, String detail) {
        this(code, detail, code.action());
    }
}
