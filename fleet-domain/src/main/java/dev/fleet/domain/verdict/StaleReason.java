package dev.fleet.domain.verdict;

import dev.fleet.domain.ReasonCode;

/** Why a running row no longer describes a live server. Stale rows are reported and block nothing. */
public enum StaleReason implements ReasonCode {
    SUPERSEDED("None needed: a newer registration names the same pid, and one process is one instance."),
    PREVIOUS_BOOT("None needed: the row was written before the host last booted; retention will drop it."),
    PROCESS_EXITED("None needed: the server exited without marking its row stopped; retention will drop it."),
    PID_REUSED("None needed for the row; if the process now on that pid looks like a server it is reported as "
            + "unregistered.");

    private final String action;

    StaleReason(String action) {
        this.action = action;
    }

    @Override
    public String action() {
        return action;
    }
}
