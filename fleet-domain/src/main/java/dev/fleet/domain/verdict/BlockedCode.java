package dev.fleet.domain.verdict;

import dev.fleet.domain.ReasonCode;
import dev.fleet.domain.RegistryReason;

/**
 * Why the mutation gate is closed, in the contract's priority order (declaration order is the order).
 * The first nine (the contract's 1-7 with 5b and 5c) mean the inventory itself is incomplete; the rest close only the gate.
 */
public enum BlockedCode implements ReasonCode {
    /** Its action is the registry reason's ({@link RegistryReason#action()}): a file's, or a database's. */
    REGISTRY_UNREADABLE(true, RegistryReason.FILE_ACTION),
    PROCESS_LISTING_UNAVAILABLE(true,
            "Run the assessment where the process table is readable: same host and PID namespace as the fleet, "
                    + "with permission to read other users' processes."),
    MALFORMED_REGISTRATION(true,
            "Repair or delete the named rows in mcp_server_runtimes and restart the servers they describe; "
                    + "a row that cannot be interpreted never counts as running."),
    UNREGISTERED_PROCESS(true,
            "Find out who started the named server processes: restart a genuine member through its official "
                    + "entrypoint so it registers, or stop the stray yourself. This tool never terminates anything."),
    PROCESS_START_UNKNOWN(true,
            "Assess as a user who can read the named processes' start times (same user or root), so a recycled "
                    + "pid can be told from the registered server."),
    PID_NAMESPACE_MISMATCH(true,
            "Assess from the pid namespace the named servers registered in (or run the whole fleet in one pid "
                    + "namespace); a pid from another namespace can be neither confirmed nor dismissed here."),
    REGISTRATION_UNCONFIRMED(true,
            "Find out what wrote the named rows: their pids name live processes that are not fleet servers (by the "
                    + "roster's server_process_patterns). Delete the rows, or fix the patterns if the servers run "
                    + "under a command line they miss."),
    COHORT_UNKNOWN(true,
            "Restart the named members with GITEA_MCP_COHORT_ID set (or with --cohort-from-parent) so their "
                    + "client cohort is recorded; matching revisions never establish a cohort."),
    REVISION_UNKNOWN(true,
            "Restart the named members with a repository root whose git HEAD is readable so their startup "
                    + "revision is recorded."),
    ORPHANED_MEMBER(false,
            "Stop the named servers yourself: the MCP client that started them is gone, so no client will use them "
                    + "again; this tool never terminates anything."),
    DUPLICATE_MEMBER(false,
            "Decide which client cohort owns the fleet and stop the other instances yourself; this tool never "
                    + "terminates a duplicate."),
    MISSING_MEMBER(false,
            "Start the missing members through the fleet's MCP client (fleet serve --profile NAME)."),
    UNEXPECTED_MEMBER(false,
            "Stop the named servers, or add them to the roster if they belong; check that every member is bound "
                    + "to the roster's remote, org and repo."),
    REMOTE_MEMBER(false,
            "Stop the named members on the other host (or let their lease expire): a fleet is exactly its "
                    + "local members and no live instance anywhere else. This tool never terminates anything."),
    COHORT_SPLIT(false,
            "Restart the fleet from a single MCP client so that every member shares one cohort."),
    REVISION_SPLIT(false,
            "Restart the members that run an older revision so that every member starts from one revision.");

    private final boolean leavesInventoryIncomplete;
    private final String action;

    BlockedCode(boolean leavesInventoryIncomplete, String action) {
        this.leavesInventoryIncomplete = leavesInventoryIncomplete;
        this.action = action;
    }

    @Override
    public String action() {
        return action;
    }

    /** True for codes 1-7, 5b and 5c: they set {@code inventory_complete} false as well as the gate. */
    public boolean leavesInventoryIncomplete() {
        return leavesInventoryIncomplete;
    }
}
