package dev.fleet.cli;

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
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:migrated (or already current)", "2:the file cannot be made or migrated: not a regular file, a named path whose directory does not exist, a directory that cannot be created, a table lacking columns, a migration lock held too long (one line on stderr)", ExitCodes.INTERNAL_LINE},
        description = "Create the registry table (additive and idempotent; other tables are never touched).")
final class RegistryMigrateCommand implements Callable<Integer> {

    // Not a FleetVerb: this verb writes the registry (or starts what does), and the read-only verbs'
    // shared base must have no such subclass for the assessment path's reach rule.
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

