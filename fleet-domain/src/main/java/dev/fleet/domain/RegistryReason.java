package dev.fleet.domain;

/** Why the registry could not be read (docs/CONTRACT.md). */
public enum RegistryReason implements Code {
    MISSING,
    SCHEMA_MISSING,
    CORRUPT,
    LOCKED,
    IO_ERROR
}
