package dev.fleet.cli.registry;

import dev.fleet.cli.exit.ExitCodes;
import dev.fleet.cli.option.RegistryOption;
import dev.fleet.domain.Printable;
import dev.fleet.domain.port.out.RegistryWriter;
import dev.fleet.registry.postgresql.PostgresRegistryWriter;
import dev.fleet.registry.schema.RegistrySchema;
import dev.fleet.registry.sqlite.SqliteRegistryWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

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
        writer().migrate();
        spec.commandLine().getOut().printf("registry %s at schema version %d%n", Printable.of(registry.location()),
                RegistrySchema.SCHEMA_VERSION);
        return ExitCodes.OK;
    }

    /**
     * The write side for the operator: PostgreSQL's (told within 5 s when the database does not answer),
     * else the file's, created where the path allows. Here, not in {@link RegistryOption}, which every
     * assessing verb uses: nothing on the assessment path may reach a writer.
     */
    private RegistryWriter writer() {
        return registry.postgres().<RegistryWriter>map(PostgresRegistryWriter::forOperator)
                .orElseGet(() -> new SqliteRegistryWriter(registry.path(),
                        SqliteRegistryWriter.Directories.forPath(!registry.mayMakeFolder())));
    }
}
