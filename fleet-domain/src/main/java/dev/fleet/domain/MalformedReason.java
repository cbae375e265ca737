package dev.fleet.domain;

/** Why a registry row cannot be interpreted (SPEC §3). Such a row never counts as running. */
public enum MalformedReason implements ReasonCode {
    RUNTIME_ID_BLANK("runtime_id_blank"),
    NAMESPACE_BLANK("namespace_blank"),
    PID_INVALID("pid_invalid"),
    STATUS_UNKNOWN("status_unknown"),
    REGISTERED_AT_UNPARSEABLE("registered_at_unparseable"),
    LAST_HEARTBEAT_AT_UNPARSEABLE("last_heartbeat_at_unparseable"),
    PROCESS_STARTED_AT_UNPARSEABLE("process_started_at_unparseable"),
    STOPPED_AT_UNPARSEABLE("stopped_at_unparseable");

    private final String code;

    MalformedReason(String code) {
        this.code = code;
    }

    @Override
    public String code() {
        return code;
    }

    @Override
    public String action() {
        return "Repair or delete this row in mcp_server_runtimes (it was not written by a conforming server); "
                + "restart the server it describes so it registers afresh.";
    }
}
