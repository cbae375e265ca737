package dev.fleet.registry.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.port.out.RegistryWriter;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Retention, run when a registration asks for it: only rows old on both timestamps (as instants,
 * whatever text other writers stored) are dropped, and a row on another pid is never removed for its namespace.
 */
class WriterRetentionTest extends RegistryWriterFixture {

    @Test
    void aRowOnAnotherPidIsNeverRemovedWhateverItsNamespaceEvenWithRetention() {
        Instant recent = NOW.minusSeconds(3600);
        writer.register(RowBuilder.registered(AUTHOR, 41300).at(recent).registration(), Optional.empty());
        writer.register(RowBuilder.registered(MERGER, 41301).at(recent).registration(), Optional.empty());

        writer.register(RowBuilder.registered(AUTHOR, 41302).at(recent.plusSeconds(1))
                .with(r -> r.runtimeId = "rt-second-author").registration(), WEEK);

        assertEquals(List.of(41300L, 41301L, 41302L),
                reader.readAll().rows().stream().map(RegistryRow::pid).sorted().toList(),
                "a live duplicate author must stay visible");
    }

    @Test
    void retentionDropsOnlyRowsOldOnBothTimestamps() {
        Instant old = NOW.minus(RegistryWriter.DEFAULT_RETENTION).minusSeconds(3600);
        writer.register(RowBuilder.registered(MERGER, 41400).at(old).registration(), Optional.empty());
        writer.register(RowBuilder.registered(REVIEWER, 41401).at(NOW.minusSeconds(60)).registration(), Optional.empty());

        writer.register(RowBuilder.registered(AUTHOR, 41402).at(NOW).registration(), WEEK);

        assertEquals(List.of(41401L, 41402L), pids());
    }

    @Test
    void retentionKeepsAnOldRegistrationThatHeartbeatedRecently() {
        Instant old = NOW.minus(RegistryWriter.DEFAULT_RETENTION).minusSeconds(3600);
        Registration daemon = RowBuilder.registered(MERGER, 41500).at(old).registration();
        writer.register(daemon, Optional.empty());
        assertTrue(writer.heartbeat(daemon.runtimeId(), NOW.minusSeconds(30)));

        writer.register(RowBuilder.registered(AUTHOR, 41501).at(NOW).registration(), WEEK);

        assertEquals(List.of(41500L, 41501L), pids(), "a long-running server must never vanish");
    }

    @Test
    void retentionIsSkippedWhenNotRequested() {
        Instant old = NOW.minus(RegistryWriter.DEFAULT_RETENTION).minusSeconds(3600);
        writer.register(RowBuilder.registered(MERGER, 41600).at(old).registration(), Optional.empty());

        writer.register(RowBuilder.registered(AUTHOR, 41601).at(NOW).registration(), Optional.empty());

        assertEquals(List.of(41600L, 41601L), pids());
    }

    @Test
    void retentionComparesInstantsWhateverFormatOtherWritersUsed() throws Exception {
        writer.migrate();
        // The cutoff is 2026-08-03T12:00:00Z. Expired, in whole seconds and with a +00:00 offset:
        RawSqlite.insertRuntime(file, RawSqlite.otherWriterRow("rt-old-z", 41700, "2026-07-01T00:00:00Z"));
        RawSqlite.insertRuntime(file, RawSqlite.otherWriterRow("rt-old-offset", 41701, "2026-07-01T00:00:00+00:00"));
        // Heartbeat text sorts after the cutoff, but the instant (11:00Z) is before it: expired.
        Map<String, Object> lateText = RawSqlite.otherWriterRow("rt-late-text", 41702, "2026-07-01T00:00:00Z");
        lateText.put("last_heartbeat_at", "2026-08-03T13:00:00+02:00");
        RawSqlite.insertRuntime(file, lateText);
        // Text sorts before the cutoff, but the instant (14:00Z) is within the window: kept.
        RawSqlite.insertRuntime(file, RawSqlite.otherWriterRow("rt-early-text", 41703, "2026-08-03T10:00:00-04:00"));
        // Unparseable timestamps cannot be judged old: the row stays, and reads as malformed.
        RawSqlite.insertRuntime(file, RawSqlite.otherWriterRow("rt-garbled", 41704, "not-a-time"));
        // Registered long ago, heartbeated an hour ago in +00:00 style: kept.
        Map<String, Object> alive = RawSqlite.otherWriterRow("rt-alive", 41705, "2026-07-01T00:00:00+00:00");
        alive.put("last_heartbeat_at", "2026-08-10T11:00:00+00:00");
        RawSqlite.insertRuntime(file, alive);

        writer.register(RowBuilder.registered(REVIEWER, 41709).at(NOW).registration(), WEEK);

        assertEquals(List.of(41703L, 41704L, 41705L, 41709L), pids());
    }

    @Test
    void retentionDropsMoreExpiredRowsThanOneDeleteNames() throws Exception {
        writer.migrate();
        int expired = 2 * RegistrationTransaction.PRUNE_CHUNK + 7;
        try (Connection connection = RawSqlite.open(file)) {
            connection.setAutoCommit(false);
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO mcp_server_runtimes "
                    + "(runtime_id, namespace, profile, role, remote, org, repo, pid, cohort_source, status, "
                    + "registered_at, last_heartbeat_at) VALUES (?, 'gitea-author', 'prgs-author', 'author', 'prgs', "
                    + "'Scaled-Tech-Consulting', 'Gitea-Tools', ?, 'unknown', 'running', ?, ?)")) {
                for (int i = 0; i < expired; i++) {
                    insert.setString(1, "rt-expired-" + i);
                    insert.setLong(2, 50_000 + i);
                    insert.setString(3, "2026-07-01T00:00:00Z");
                    insert.setString(4, "2026-07-01T00:00:00Z");
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            connection.commit();
        }
        RawSqlite.insertRuntime(file, RawSqlite.otherWriterRow("rt-recent", 41800, "2026-08-10T11:00:00Z"));

        writer.register(RowBuilder.registered(REVIEWER, 41801).at(NOW).registration(), WEEK);

        assertEquals(List.of(41800L, 41801L), pids(), "every one of " + expired + " expired rows is dropped");
    }

    private List<Long> pids() {
        return reader.readAll().rows().stream().map(RegistryRow::pid).sorted().toList();
    }
}
