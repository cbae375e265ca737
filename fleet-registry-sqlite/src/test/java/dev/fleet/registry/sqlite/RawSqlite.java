package dev.fleet.registry.sqlite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Plain JDBC, standing for the other tools that share the control-plane file: they create their own
 * tables, write rows directly, and sometimes write them badly. Tests also use it to inspect a file
 * without going through the code under test.
 */
final class RawSqlite {

    private RawSqlite() {
    }

    static Connection open(Path file) throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
    }

    static void execute(Path file, String... statements) throws SQLException {
        try (Connection connection = open(file); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    /** Inserts one row of {@code mcp_server_runtimes} column by column, as another writer would. */
    static void insertRuntime(Path file, Map<String, Object> columns) throws SQLException {
        String names = String.join(", ", columns.keySet());
        String marks = String.join(", ", columns.keySet().stream().map(name -> "?").toList());
        try (Connection connection = open(file);
                PreparedStatement insert = connection.prepareStatement(
                        "INSERT INTO mcp_server_runtimes (" + names + ") VALUES (" + marks + ")")) {
            int index = 1;
            for (Object value : columns.values()) {
                insert.setObject(index++, value);
            }
            insert.executeUpdate();
        }
    }

    /** A complete, well-formed row in another writer's style; callers override columns. */
    static Map<String, Object> otherWriterRow(String runtimeId, long pid, String registeredAt) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("runtime_id", runtimeId);
        row.put("namespace", "gitea-author");
        row.put("profile", "prgs-author");
        row.put("role", "author");
        row.put("remote", "prgs");
        row.put("org", "Scaled-Tech-Consulting");
        row.put("repo", "Gitea-Tools");
        row.put("pid", pid);
        row.put("cohort_source", "unknown");
        row.put("status", "running");
        row.put("registered_at", registeredAt);
        row.put("last_heartbeat_at", registeredAt);
        return row;
    }

    static List<List<Object>> query(Path file, String sql) throws SQLException {
        try (Connection connection = open(file);
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            return collect(rows);
        }
    }

    static Object scalar(Path file, String sql) throws SQLException {
        return query(file, sql).get(0).get(0);
    }

    static int userVersion(Path file) throws SQLException {
        return ((Number) scalar(file, "PRAGMA user_version")).intValue();
    }

    /** The whole logical content: every schema object, then every row of every table, in a stable order. */
    static Map<String, List<List<Object>>> dump(Path file) throws SQLException {
        Map<String, List<List<Object>>> dump = new LinkedHashMap<>();
        dump.put("sqlite_master", query(file, "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"));
        dump.put("user_version", List.of(List.<Object>of(userVersion(file))));
        for (List<Object> table : query(file,
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")) {
            String name = (String) table.get(0);
            dump.put(name, query(file, "SELECT * FROM \"" + name + "\" ORDER BY rowid"));
        }
        return dump;
    }

    static String sha256(Path file) throws IOException {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    private static List<List<Object>> collect(ResultSet rows) throws SQLException {
        ResultSetMetaData meta = rows.getMetaData();
        List<List<Object>> result = new ArrayList<>();
        while (rows.next()) {
            List<Object> row = new ArrayList<>();
            for (int column = 1; column <= meta.getColumnCount(); column++) {
                row.add(rows.getObject(column));
            }
            result.add(row);
        }
        return result;
    }
}
