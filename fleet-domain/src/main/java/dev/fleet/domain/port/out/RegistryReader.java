package dev.fleet.domain.port.out;

import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.RegistryRead;

/**
 * The registry as evidence. Implementations must never create, migrate or write the registry:
 * a failure to read is a {@link RegistryRead#unreadable reason}, never an exception.
 */
public interface RegistryReader {

    /** Every row, any status, ordered by {@code registered_at} then {@code runtime_id}: the contract's list. */
    RegistryRead readAll();

    /**
     * Every row, any status, in whatever order the registry gives them: the evidence of an
     * assessment, whose verdict never depends on the order rows arrive in. A reader that orders
     * rows anyway may answer {@link #readAll}; sorting 10,000 rows was a tenth of a cold assessment's cost.
     */
    default RegistryRead readAllInAnyOrder() {
        return readAll();
    }

    /** The rows with this status, in the same order. */
    RegistryRead read(RegistrationStatus status);

    /** Where the registry lives, as shown to operators. */
    String location();
}
