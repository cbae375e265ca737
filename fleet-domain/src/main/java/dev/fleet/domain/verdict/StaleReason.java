package dev.fleet.domain.verdict;

import dev.fleet.domain.ReasonCode;

/** Why a running row no longer describes a live server. Stale rows are reported and block nothing. */
public enum StaleReason implements ReasonCode {
    SUPERSEDED,
    PREVIOUS_BOOT,
    PROCESS_EXITED,
    PID_REUSED,
    /** A row of another host whose last heartbeat is older than the lease, by the registry's clock. */
    LEASE_EXPIRED,
    /** The server the member wraps ({@code server_pid}) no longer runs: the member is not running either. */
    SERVER_EXITED;

    @Override
    public String action() {
        return switch (this) {
            case SUPERSEDED -> "None needed: a newer registration names the same pid, and one process is one instance.";
            case PREVIOUS_BOOT -> "None needed: the row was written before the host last booted; retention will "
                    + "drop it.";
            case PROCESS_EXITED -> "None needed: the server exited without marking its row stopped; retention will "
                    + "drop it.";
            case PID_REUSED -> "None needed for the row; if the process now on that pid looks like a server it "
                    + "is reported as unregistered.";
            case LEASE_EXPIRED -> "None needed: the server on another host stopped heartbeating longer ago than "
                    + "the lease; retention will drop the row.";
            case SERVER_EXITED -> "None needed for the row: the server this member wraps (server_pid) has exited, "
                    + "so the member is not running; its fleet serve stops once its child is gone. Start the member "
                    + "again if it should run.";
        };
    }
}
