package dev.fleet.registry.sqlite;

import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.port.out.RegistryWriter;
import dev.fleet.testing.Patience;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What a fleet server does with the registry, in a JVM of its own: register (migrating the file
 * if it needs it), migrate explicitly as {@code fleet registry migrate} would, read back.
 * Arguments: registry file, pid, index of the default roster member.
 */
public final class QuietRegistryMain {

    private QuietRegistryMain() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        long pid = Long.parseLong(args[1]);
        RosterMember member = Roster.defaultRoster().members().get(Integer.parseInt(args[2]));
        SqliteRegistryWriter writer = new SqliteRegistryWriter(file);
        writer.register(RowBuilder.registered(member, pid).at(java.time.Instant.now()).registration(),
                Optional.of(RegistryWriter.DEFAULT_RETENTION));
        // writer.migrate(), with the lock wait of `fleet registry migrate` (20 s) scaled for the host:
        // five cold JVMs on a starved host can keep the first migration's lock longer than that,
        // and the product then rightly names the holder; what is tested here is the race, not the host.
        SchemaMigration.migrate(file, SqliteFiles.writer(file, SqliteRegistryWriter.DEFAULT_BUSY_TIMEOUT), true,
                Patience.scaled(MigrationLock.DEFAULT_WAIT));
        boolean found = new SqliteRegistryReader(file).readAll().rows().stream()
                .anyMatch(row -> row.pid() != null && row.pid() == pid);
        System.exit(found ? 0 : 3);
    }
}
