package dev.fleet.domain.port.out;

import dev.fleet.domain.RegistryRead;

/**
 * The registry as the assessment's evidence: one of the two sources a verdict rests on. Implementations
 * must never create, migrate or write the registry: a failure to read is a
 * {@link RegistryRead#unreadable reason}, never an exception.
 */
public interface RegistryEvidence {

    /** Every row, any status, or why none could be read; the verdict never depends on their order. */
    RegistryRead readAll();

    /** Where the registry lives, as the verdict names it. */
    String location();
}
