package dev.fleet.registry.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.RowBuilder;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What can never be registered, each refused with an error that says why: a blank runtime id or
 * namespace, a missing or non-positive pid, a retention window that is not positive.
 */
class WriterRejectionsTest extends RegistryWriterFixture {

    @Test
    void aBlankRuntimeIdIsRejectedWithAClearError() {
        assertEquals("registration: runtime_id must be non-blank", rejection("  ", "gitea-author", 43000));
        assertEquals("registration: runtime_id must be non-blank", rejection(null, "gitea-author", 43000));
    }

    @Test
    void aBlankNamespaceIsRejectedWithAClearError() {
        assertEquals("registration: namespace must be non-blank", rejection("rt-1", " ", 43000));
        assertEquals("registration: namespace must be non-blank", rejection("rt-1", null, 43000));
    }

    /** A registration cannot lack a pid (its type says so); a row another tool wrote without one is malformed. */
    @Test
    void aMissingPidCannotBeRegisteredAndReadsAsMalformed() throws Exception {
        writer.migrate();
        java.util.Map<String, Object> row = RawSqlite.otherWriterRow("rt-no-pid", 1, "2026-07-28T02:00:00Z");
        row.remove("pid");
        assertThrows(java.sql.SQLException.class, () -> RawSqlite.insertRuntime(file, row), "NOT NULL pid");
        RawSqlite.execute(file, "INSERT INTO mcp_server_runtimes (runtime_id, namespace, pid, cohort_source, status, "
                + "registered_at, last_heartbeat_at) VALUES ('rt-text-pid', 'gitea-author', 'none', 'unknown', "
                + "'running', '2026-07-28T02:00:00Z', '2026-07-28T02:00:00Z')");
        RegistryRow read = reader.readAll().rows().stream()
                .filter(candidate -> candidate.runtimeId().equals("rt-text-pid")).findFirst().orElseThrow();
        assertEquals(dev.fleet.domain.MalformedReason.PID_INVALID,
                ((dev.fleet.domain.MalformedRegistration) read.interpret()).reason());
    }

    /**
     * Another tool's table whose pid column is TEXT stores the pid as text: the registration fails saying
     * so, rather than succeed with a row every assessment reads as malformed. The migration a first registration
     * runs refuses such a table; one that claims the schema already (its user_version) is refused by the
     * read-back, which is the readers'.
     */
    @Test
    void aTableThatStoresThePidAsTextRefusesTheRegistration() throws Exception {
        RawSqlite.execute(file, "CREATE TABLE mcp_server_runtimes (" + dev.fleet.registry.schema.RegistryColumn.ALL
                .stream().map(column -> column.sqlName() + " TEXT").collect(java.util.stream.Collectors.joining(", "))
                + ")");
        Registration registration = RowBuilder.registered(AUTHOR, 42300).registration();

        RuntimeException refused = assertThrows(RuntimeException.class, () -> writer.register(registration, WEEK));
        assertTrue(refused.getMessage().contains("mcp_server_runtimes declares pid TEXT, parent_pid TEXT, server_pid "
                + "TEXT, which keeps a pid as other than a whole number"), refused.getMessage());

        RawSqlite.execute(file, "PRAGMA journal_mode = WAL",
                "PRAGMA user_version = " + dev.fleet.registry.schema.RegistrySchema.SCHEMA_VERSION);
        RuntimeException readBack = assertThrows(RuntimeException.class, () -> writer.register(registration, WEEK));
        assertEquals("register: " + registration.runtimeId() + " did not read back from " + file + " (pid_invalid)",
                readBack.getMessage());
    }

    @ParameterizedTest
    @ValueSource(longs = {0, -1, -41004})
    void aNonPositivePidIsRejectedWithAClearError(long pid) {
        assertEquals("registration: pid must be a positive integer, got " + pid, rejection("rt-1", "gitea-author", pid));
    }

    @Test
    void aNonPositiveRetentionWindowIsRejected() {
        Registration registration = RowBuilder.registered(AUTHOR, 42200).registration();
        assertThrows(IllegalArgumentException.class,
                () -> writer.register(registration, Optional.of(Duration.ZERO)));
        assertThrows(IllegalArgumentException.class,
                () -> writer.register(registration, Optional.of(Duration.ofDays(-1))));
    }

    /** Why a registration with this identity cannot even be built, so no writer ever sees it. */
    private static String rejection(String runtimeId, String namespace, long pid) {
        Registration sound = RowBuilder.registered(AUTHOR, 43000).registration();
        return assertThrows(IllegalArgumentException.class, () -> sound.toBuilder().runtimeId(runtimeId)
                .identity(new RosterMember(namespace, sound.profile(), sound.role())).pid(pid).build()).getMessage();
    }
}
