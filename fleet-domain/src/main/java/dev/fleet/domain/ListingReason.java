package dev.fleet.domain;

/** Why the process table could not be read (SPEC §5). */
public enum ListingReason implements Code {
    UNSUPPORTED_PLATFORM,
    PERMISSION_DENIED,
    IO_ERROR
}
