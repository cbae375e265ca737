package dev.fleet.domain;

/** Why the process table could not be read (docs/CONTRACT.md). */
public enum ListingReason implements Code {
    UNSUPPORTED_PLATFORM,
    PERMISSION_DENIED,
    IO_ERROR
}
