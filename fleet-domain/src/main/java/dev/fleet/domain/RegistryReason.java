package dev.fleet.domain;

/**
 * Why the registry could not be read (docs/CONTRACT.md), and what the operator should do about it: the
 * reasons a file gives share the file's action; a database's own reasons say what to do with the database.
 */
public enum RegistryReason implements ReasonCode {
    MISSING(null),
    SCHEMA_MISSING(null),
    CORRUPT(null),
    LOCKED(null),
    IO_ERROR(null),
    /** PostgreSQL (docs/CONTRACT.md, "Many hosts"): no answer within the timeout, or the connection refused. */
    UNREACHABLE("Check that the PostgreSQL server in the registry URL is running and reachable from this host "
            + "(host, port, firewall) and answers in time; nothing can be established without it."),
    /** PostgreSQL: the credentials or the role's privileges were refused. */
    ACCESS_DENIED("Let the database role in the registry URL log in (its password in PGPASSWORD or ~/.pgpass, "
            + "a pg_hba.conf entry for this host) and read the registry: CONNECT on the database, USAGE on the "
            + "schema, and GRANT SELECT ON mcp_server_runtimes TO the role; nothing can be established without it.");

    /** The action of every reason a file gives. */
    public static final String FILE_ACTION = "Make the registry file readable at the path shown (create it by "
            + "starting a fleet server, or fix its permissions, corruption or lock); nothing can be established "
            + "without it.";

    private final String ownAction;

    RegistryReason(String ownAction) {
        this.ownAction = ownAction;
    }

    @Override
    public String action() {
        return ownAction != null ? ownAction : FILE_ACTION;
    }

    /** Whether this reason has an action of its own (a database's), rather than the one every file reason shares. */
    public boolean hasOwnAction() {
        return ownAction != null;
    }
}
