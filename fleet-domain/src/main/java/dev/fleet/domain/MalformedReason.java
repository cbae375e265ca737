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
    STOPPED_AT_UNPARSEABLE;

    @Override
    public String action() {
        return "Repair or delete this row in mcp_server_runtimes (it was not written by a conforming server); "
                + "restart the server it describes so it registers afresh.";
    }
}
