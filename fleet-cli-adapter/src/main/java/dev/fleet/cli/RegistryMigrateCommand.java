package dev.fleet.cli;

import dev.fleet.registry.sqlite.RegistrySchema;
import dev.fleet.registry.sqlite.SqliteRegistryWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Creates the registry file if needed and brings its table to {@link RegistrySchema#SCHEMA_VERSION}. */
@Command(name = "migrate", mixinStandardHelpOptions = true,
        description = "Create the registry table (additive and idempotent; other tables are never touched).")
final class RegistryMigrateCommand implements Callable<Integer> {

    @Mixin
    private RegistryOption registry;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        Path path = registry.path();
        new SqliteRegistryWriter(path).migrate();
        spec.commandLine().getOut().printf("registry %s at schema version %d%n", path, RegistrySchema.SCHEMA_VERSION);
        return 0;
    }
}

