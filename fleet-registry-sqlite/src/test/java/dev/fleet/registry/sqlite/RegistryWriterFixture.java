package dev.fleet.registry.sqlite;

import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.port.out.RegistryWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * What the writer's tests start from: the registry file, with a writer whose clock stands still at
 * {@link #NOW} (so retention has a fixed cutoff), and the members they register.
 */
abstract class RegistryWriterFixture extends RegistryFileTest {

    static final Roster ROSTER = Roster.defaultRoster();
    static final RosterMember AUTHOR = member("author");
    static final RosterMember REVIEWER = member("reviewer");
    static final RosterMember MERGER = member("merger");
    /** The writer's "now": retention is measured from here. */
    static final Instant NOW = Instant.parse("2026-08-10T12:00:00.000Z");
    static final Optional<Duration> WEEK = Optional.of(RegistryWriter.DEFAULT_RETENTION);

    @Override
    SqliteRegistryWriter openWriter(Path registry) {
        return new SqliteRegistryWriter(registry, () -> NOW, SqliteRegistryWriter.DEFAULT_BUSY_TIMEOUT);
    }

    static RosterMember member(String role) {
        return ROSTER.members().stream().filter(member -> member.role().equals(role)).findFirst().orElseThrow();
    }
}
