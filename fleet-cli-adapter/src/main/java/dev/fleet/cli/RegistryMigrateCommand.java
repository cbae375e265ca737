package dev.fleet.cli;

import dev.fleet.cli.text.Printable;
import dev.fleet.registry.sqlite.RegistrySchema;
import dev.fleet.registry.sqlite.SqliteRegistryWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Mixin;

/** Creates the registry file if needed and brings its table to {@link RegistrySchema#SCHEMA_VERSION}. */
@Command(name = "migrate",
        description = "Create the registry table (additive and idempotent; other tables are never touched).")
final class RegistryMigrateCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private RegistryOption registry;

    @Override
    public Integer call() {
        Path path = registry.path();
        new SqliteRegistryWriter(path, SqliteRegistryWriter.Directories.forPath(registry.named())).migrate();
        spec.commandLine().getOut().printf("registry %s at schema version %d%n", Printable.of(path),
                RegistrySchema.SCHEMA_VERSION);
        return ExitCodes.OK;
    }
}

