package dev.fleet.domain;

/** Why the process table could not be read (SPEC §5). */
public enum ListingReason {
    UNSUPPORTED_PLATFORM("unsupported_platform"),
    PERMISSION_DENIED("permission_denied"),
    IO_ERROR("io_error");

    private final String code;

    ListingReason(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }
}
