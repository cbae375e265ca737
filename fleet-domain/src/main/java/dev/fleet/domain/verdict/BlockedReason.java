package dev.fleet.domain.verdict;

/** One reason the gate is closed: its code, which members or pids it concerns, and what to do. */
public record BlockedReason(BlockedCode code, String detail) {

    public String action() {
        return code.action();
    }
}
