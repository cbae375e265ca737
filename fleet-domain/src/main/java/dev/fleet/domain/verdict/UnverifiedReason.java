package dev.fleet.domain.verdict;

import dev.fleet.domain.ReasonCode;

/** Why a live-looking registration could not be verified against its process. */
public enum UnverifiedReason implements ReasonCode {
    PROCESS_START_UNKNOWN("process_start_unknown");

    private final String code;

    UnverifiedReason(String code) {
        this.code = code;
    }

    @Override
    public String code() {
        return code;
    }

    @Override
    public String action() {
        return BlockedCode.PROCESS_START_UNKNOWN.action();
    }
}
