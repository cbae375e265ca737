package dev.fleet.registry.sqlite;

import static dev.fleet.registry.sqlite.RowMapping.column;

import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Timestamps;
import dev.fleet.registry.schema.RegistryColumn;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a registration does inside its transaction: replace-on-pid, optional retention, upsert and
 * read-back, by column name. An update-then-insert rather than an upsert: a table another tool made
 * need not declare runtime_id its primary key.
 */
final class RegistrationTransaction {

    private static final String RUNTIME_ID = column(RegistryColumn.RUNTIME_ID);
    /**
     * How many expired rows one DELETE names: well under SQLite's bound on parameters (999 before
     * 3.32), and few statements even when a registry of 10,000 stale rows is pruned at once.
     */
    static final int PRUNE_CHUNK = 500;

    private RegistrationTransaction() {
    }

    /** Stores {@code row}, first dropping rows old on both timestamps before {@code pruneBefore}; the row read back. */
    static RegistryRow store(Connection connection, RegistryRow row, Optional<Instant> pruneBefore)
            throws SQLException {
        TableColumns columns = TableColumns.of(connection);
        dropOthersOnThePid(connection, row, columns);
        if (pruneBefore.isPresent()) {
            pruneExpired(connection, row.runtimeId(), pruneBefore.get());
        }
        List<RegistryColumn> present = columns.present();
        if (update(connection, present, row) == 0) {
            insert(connection, present, row);
        }
        return readBack(connection, columns, row.runtimeId());
    }

    /**
     * The pid now names this server: any other row on it from this pid namespace (or from before
     * namespaces were recorded) describes a process that is gone. A row on the same pid from another
     * namespace may be a live server there, and must stay visible; so must another host's row in a
     * shared registry, where the same pid names another process.
     */
    private static void dropOthersOnThePid(Connection connection, RegistryRow row, TableColumns columns)
            throws SQLException {
        List<String> scopes = new ArrayList<>();
        List<String> scopeValues = new ArrayList<>();
        for (RegistryColumn scope : List.of(RegistryColumn.PID_NAMESPACE, RegistryColumn.HOST_ID)) {
            Object value = scope.valueOf(row);
            if (columns.has(scope) && value != null) {
                scopes.add(" and (" + column(scope) + " is null or " + column(scope) + " = ?)");
                scopeValues.add((String) value);
            }
        }
        try (PreparedStatement delete = connection.prepareStatement("delete from " + RowQuery.TABLE + " where "
                + column(RegistryColumn.PID) + " = ? and " + RUNTIME_ID + " is not ?" + String.join("", scopes))) {
            delete.setObject(1, row.pid());
            delete.setString(2, row.runtimeId());
            for (int i = 0; i < scopeValues.size(); i++) {
                delete.setString(3 + i, scopeValues.get(i));
            }
            delete.executeUpdate();
        }
    }

    private static int update(Connection connection, List<RegistryColumn> present, RegistryRow row)
            throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(RowMapping.updateByRuntimeId(present))) {
            update.setString(RowMapping.bind(update, 1, present, row), row.runtimeId());
            return update.executeUpdate();
        }
    }

    private static void insert(Connection connection, List<RegistryColumn> present, RegistryRow row)
            throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(RowMapping.insert(present))) {
            RowMapping.bind(insert, 1, present, row);
            insert.executeUpdate();
        }
    }

    /** The one row on {@code runtimeId}, null when there is none; two are a table no registration can trust. */
    private static RegistryRow readBack(Connection connection, TableColumns columns, String runtimeId)
            throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(RowMapping.selectByRuntimeId(columns))) {
            select.setString(1, runtimeId);
            try (ResultSet result = select.executeQuery()) {
                if (!result.next()) {
                    return null;
                }
                RegistryRow stored = RowMapping.toRow(result, columns);
                if (result.next()) {
                    // Plain SQLException: the writer words it, naming the file; nothing is committed.
                    throw new SQLException("more than one row holds runtime_id " + runtimeId + " ("
                            + RowQuery.TABLE + " has no primary key; another tool made it); nothing was changed");
                }
                return stored;
            }
        }
    }

    /**
     * Deletes rows old on both timestamps. Other writers use other timestamp formats, so instants are
     * compared after parsing, never as text; a row whose timestamps cannot be parsed is kept (it shows
     * as malformed, which an operator should see).
     */
    private static void pruneExpired(Connection connection, String keepRuntimeId, Instant cutoff)
            throws SQLException {
        List<String> expired = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement("select " + RUNTIME_ID + ", "
                + column(RegistryColumn.REGISTERED_AT) + ", " + column(RegistryColumn.LAST_HEARTBEAT_AT)
                + " from " + RowQuery.TABLE + " where " + RUNTIME_ID + " is not ?")) {
            select.setString(1, keepRuntimeId);
            try (ResultSet candidates = select.executeQuery()) {
                while (candidates.next()) {
                    String runtimeId = candidates.getString(1);
                    if (runtimeId != null && before(candidates.getString(2), cutoff)
                            && before(candidates.getString(3), cutoff)) {
                        expired.add(runtimeId);
                    }
                }
            }
        }
        for (int from = 0; from < expired.size(); from += PRUNE_CHUNK) {
            List<String> chunk = expired.subList(from, Math.min(expired.size(), from + PRUNE_CHUNK));
            try (PreparedStatement delete = connection.prepareStatement("delete from " + RowQuery.TABLE + " where "
                    + RUNTIME_ID + " in (" + RowMapping.marks(chunk.size()) + ")")) {
                for (int i = 0; i < chunk.size(); i++) {
                    delete.setString(i + 1, chunk.get(i));
                }
                delete.executeUpdate();
            }
        }
    }

    private static boolean before(String timestamp, Instant cutoff) {
        return Timestamps.parse(timestamp).map(instant -> instant.isBefore(cutoff)).orElse(false);
    }
}
