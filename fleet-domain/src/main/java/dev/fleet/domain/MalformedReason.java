package dev.fleet.domain;

/** Why a registry row cannot be interpreted (docs/CONTRACT.md). Such a row never counts as running. */
public enum MalformedReason implements ReasonCode {
    RUNTIME_ID_BLANK,
    NAMESPACE_BLANK,
    PID_INVALID,
    STATUS_UNKNOWN,
    REGISTERED_AT_UNPARSEABLE,
    LAST_HEARTBEAT_AT_UNPARSEABLE,
    PROCESS_STARTED_AT_UNPARSEABLE,
    STOPPED_AT_UNPARSEABLE,
    /**
     * Rows that contradict each other: the same runtime_id with different content, or running rows
     * naming one live process (same pid, same pid namespace) as different members. Every row of such
     * a conflict is malformed; none is preferred by the order the rows were read in.
     */
    CONFLICTING_CLAIMS;

    @Override
    public String action() {
        return "Repair or delete this row in mcp_server_runtimes (it was not written by a conforming server); "
                + "restart the server it describes so it registers afresh.";
    }
}
