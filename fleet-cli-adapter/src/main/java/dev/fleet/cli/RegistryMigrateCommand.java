package dev.fleet.cli;

import dev.fleet.cli.text.Printable;
import dev.fleet.registry.sqlite.RegistrySchema;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Mixin;

/**
 * Creates the registry (a file, or the table in a PostgreSQL database) if needed and brings its table to
 * {@link RegistrySchema#SCHEMA_VERSION}, through the same Liquibase changelog on either engine.
 */
@Command(name = "migrate",
        description = "Create the registry table (additive and idempotent; other tables are never touched).")
final class RegistryMigrateCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private RegistryOption registry;

    @Override
    public Integer call() {
        registry.migrationWriter().migrate();
        spec.commandLine().getOut().printf("registry %s at schema version %d%n", Printable.of(registry.location()),
                RegistrySchema.SCHEMA_VERSION);
        return ExitCodes.OK;
    }
}
