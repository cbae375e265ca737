package dev.fleet.domain;

import java.util.Optional;

/** A registration's {@code status} column. */
public enum RegistrationStatus implements Code {
    RUNNING,
    STOPPED;

    public static Optional<RegistrationStatus> fromCode(String code) {
        return Code.parse(RegistrationStatus.class, code);
    }
}
