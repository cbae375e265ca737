package dev.fleet.domain.verdict;

import dev.fleet.domain.ReasonCode;

/** Why a live-looking registration could not be verified against its process. */
public enum UnverifiedReason implements ReasonCode {
    PROCESS_START_UNKNOWN(BlockedCode.PROCESS_START_UNKNOWN),
    /** Registered from another pid namespace: its pid names another process here, or none. */
    OTHER_PID_NAMESPACE(BlockedCode.PID_NAMESPACE_MISMATCH),
    /** Its pid is live, but the process is not one the roster's server process patterns match (pid 1, a sleep). */
    NOT_A_SERVER_PROCESS(BlockedCode.REGISTRATION_UNCONFIRMED);

    private final BlockedCode blocks;

    UnverifiedReason(BlockedCode blocks) {
        this.blocks = blocks;
    }

    /** The blocked reason a registration left unverified for this reason raises. */
    BlockedCode blocks() {
        return blocks;
    }

    @Override
    public String action() {
        return blocks.action();
    }
}
