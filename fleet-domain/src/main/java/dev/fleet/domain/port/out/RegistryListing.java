package dev.fleet.domain.port.out;

import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.RegistryRead;

/**
 * The registry as an operator lists it ({@code fleet registry list}, the demo's own checks): rows in
 * the contract's order, all or by status. Read-only, like {@link RegistryEvidence}: a failure to read
 * is a {@link RegistryRead#unreadable reason}, never an exception.
 */
public interface RegistryListing {

    /** Every row, any status, ordered by {@code registered_at} then {@code runtime_id}: the contract's list. */
    RegistryRead readAll();

    /** The rows with this status, in the same order. */
    RegistryRead read(RegistrationStatus status);

    /** Where the registry lives, as shown to operators. */
    String location();
}
