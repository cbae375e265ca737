package dev.fleet.domain;

/** Why the registry could not be read (SPEC §5). */
public enum RegistryReason {
    MISSING("missing"),
    SCHEMA_MISSING("schema_missing"),
    CORRUPT("corrupt"),
    LOCKED("locked"),
    IO_ERROR("io_error");

    private final String code;

    RegistryReason(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }
}
