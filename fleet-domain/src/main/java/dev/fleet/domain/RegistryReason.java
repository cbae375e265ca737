package dev.fleet.domain;

/** Why the registry could not be read (docs/CONTRACT.md). */
public enum RegistryReason implements Code {
    MISSING,
    SCHEMA_MISSING,
    CORRUPT,
    LOCKED,
    IO_ERROR,
    /** PostgreSQL (docs/CONTRACT.md, "Many hosts"): no answer within the timeout, or the connection refused. */
    UNREACHABLE,
    /** PostgreSQL: the credentials or the role's privileges were refused. */
    ACCESS_DENIED
}
