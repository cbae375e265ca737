package dev.fleet.domain;

import java.util.Arrays;
import java.util.Optional;

/** A registration's {@code status} column. */
public enum RegistrationStatus {
    RUNNING("running"),
    STOPPED("stopped");

    private final String code;

    RegistrationStatus(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }

    public static Optional<RegistrationStatus> fromCode(String code) {
        return Arrays.stream(values()).filter(status -> status.code.equals(code)).findFirst();
    }
}
