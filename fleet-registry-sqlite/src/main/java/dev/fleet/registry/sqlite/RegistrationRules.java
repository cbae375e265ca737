package dev.fleet.registry.sqlite;

import dev.fleet.domain.InterpretedRow;
import dev.fleet.domain.MalformedRegistration;
import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistryRow;

/**
 * What a row must satisfy before a writer stores it (SPEC §3). A {@link Registration} already holds
 * these rules in its constructor; this is the same check for a raw row, with one clear message per
 * rule, for callers that assemble rows field by field.
 */
public final class RegistrationRules {

    private RegistrationRules() {
    }

    /**
     * The row as a registration.
     *
     * @throws IllegalArgumentException naming the first rule the row breaks
     */
    public static Registration requireRegistrable(RegistryRow row) {
        if (row == null) {
            throw new IllegalArgumentException("registration rejected: no row given");
        }
        if (row.runtimeId() == null || row.runtimeId().isBlank()) {
            throw new IllegalArgumentException("registration rejected: runtime_id must be a non-blank string");
        }
        if (row.namespace() == null || row.namespace().isBlank()) {
            throw new IllegalArgumentException("registration rejected: namespace must be a non-blank string");
        }
        if (row.pid() == null) {
            throw new IllegalArgumentException("registration rejected: pid is required");
        }
        if (row.pid() <= 0) {
            throw new IllegalArgumentException(
                    "registration rejected: pid must be a positive integer, got " + row.pid());
        }
        InterpretedRow interpreted = row.interpret();
        if (interpreted instanceof MalformedRegistration malformed) {
            throw new IllegalArgumentException(
                    "registration rejected: " + malformed.reason().code() + " (runtime_id " + row.runtimeId() + ")");
        }
        return (Registration) interpreted;
    }
}
