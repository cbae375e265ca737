package dev.fleet.cli.option;

import dev.fleet.domain.Lease;
import picocli.CommandLine.Option;

/**
 * {@code --lease DUR}: how long a row of another host stays live without a heartbeat, by the
 * registry's clock; {@code assess} and {@code registry list} judge such rows alike.
 */
public final class LeaseOption {

    /**
     * Null until given: picocli renders a field's initial value as text at every parse, and a record's
     * toString is linked at its first call by spinning method-handle classes, which a cold verb pays for.
     */
    @Option(names = "--lease", paramLabel = "DUR", converter = LeaseConverter.class,
            description = "How long a row of another host stays live without a heartbeat, by the registry's clock: "
                    + "1ms to 24h (500ms, 90s, 5m, 1h). Default: 90s.")
    Lease lease;

    /** The lease given, else {@link Lease#DEFAULT}. */
    public Lease lease() {
        return lease == null ? Lease.DEFAULT : lease;
    }
}
