package dev.fleet.domain.verdict;

import dev.fleet.domain.ReasonCode;

/** Why a running row no longer describes a live server. Stale rows are reported and block nothing. */
public enum StaleReason implements ReasonCode {
    SUPERSEDED("superseded",
            "None needed: a newer registration names the same pid, and one process is one instance."),
    PREVIOUS_BOOT("previous_boot",
            "None needed: the row was written before the host last booted; retention will drop it."),
    PROCESS_EXITED("process_exited",
            "None needed: the server exited without marking its row stopped; retention will drop it."),
    PID_REUSED("pid_reused",
            "None needed for the row; if the process now on that pid looks like a server it is reported as "
                    + "unregistered.");

    private final String code;
    private final String action;

    StaleReason(String code, String action) {
        this.code = code;
        this.action = action;
    }

    @Override
    public String code() {
        return code;
    }

    @Override
    public String action() {
        return action;
    }
}
