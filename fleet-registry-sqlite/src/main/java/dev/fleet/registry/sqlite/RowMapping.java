package dev.fleet.registry.sqlite;

import dev.fleet.domain.RegistryRow;
import dev.fleet.registry.schema.RegistryColumn;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Column values to and from the domain's row, for the writer: as-is (interpretation is the domain's
 * job), always by column name, following {@link RegistryColumn}. The table may hold its columns in
 * any order, columns of other tools, or lack this project's own (then read as NULL, and left out
 * when writing). Plain JDBC, like the reader's {@link RowQuery}: a server writes its row before
 * anything else, and jOOQ's start-up was half of a member's CPU to that row (docs/PERFORMANCE.md,
 * fifth round). The names are {@link RegistryColumn}'s and {@link RowQuery#TABLE}, which
 * {@code RowQueryTest} holds equal to jOOQ's generated table.
 */
final class RowMapping {

    /** The pid as SQLite stores it, so a pid that is not a whole number is seen as such. */
    private static final String PID_AS_TEXT = "cast(" + column(RegistryColumn.PID) + " as varchar) as \"pid_as_text\"";

    private RowMapping() {
    }

    /** {@code column}'s name where a statement assigns to it (SET, an INSERT's list): quoted, never a keyword. */
    private static String quoted(RegistryColumn column) {
        return '"' + column.sqlName() + '"';
    }

    /**
     * {@code column} in an expression, qualified by the table: SQLite reads an unqualified double-quoted
     * name that names no column as a string literal, so a table that lacks the column would compare
     * against the text of its name; qualified, it is an error ("no such column"), as jOOQ's names were.
     */
    static String column(RegistryColumn column) {
        return RowQuery.TABLE + "." + quoted(column);
    }

    /** Sets {@code columns}, bound in order, then the runtime_id, in the one row on that runtime_id. */
    static String updateByRuntimeId(List<RegistryColumn> columns) {
        return "update " + RowQuery.TABLE + " set "
                + columns.stream().map(column -> quoted(column) + " = ?").collect(Collectors.joining(", "))
                + " where " + column(RegistryColumn.RUNTIME_ID) + " = ?";
    }

    /** Inserts a row of {@code columns}, bound in order. */
    static String insert(List<RegistryColumn> columns) {
        return "insert into " + RowQuery.TABLE + " ("
                + columns.stream().map(RowMapping::quoted).collect(Collectors.joining(", ")) + ") values ("
                + marks(columns.size()) + ")";
    }

    /** Selects, by name, every column of ours the table has, with the pid as text, for one runtime_id. */
    static String selectByRuntimeId(TableColumns columns) {
        return "select " + columns.present().stream().map(RowMapping::column).collect(Collectors.joining(", "))
                + ", " + PID_AS_TEXT + " from " + RowQuery.TABLE + " where " + column(RegistryColumn.RUNTIME_ID) + " = ?";
    }

    /** {@code count} bind markers, separated by commas. */
    static String marks(int count) {
        return String.join(", ", Collections.nCopies(count, "?"));
    }

    /**
     * The current row of {@code result}, selected by {@link #selectByRuntimeId}, with the pid only when
     * SQLite holds it as a whole number: a REAL {@code 12.7} another tool wrote must not read as pid 12,
     * a live-looking pid the row never named.
     */
    static RegistryRow toRow(ResultSet result, TableColumns columns) throws SQLException {
        String[] text = new String[RegistryColumn.ALL.size()];
        List<RegistryColumn> present = columns.present();
        for (int i = 0; i < present.size(); i++) {
            RegistryColumn column = present.get(i);
            if (column != RegistryColumn.PID) {
                // The writer reads back its own row, so another INTEGER column holds what it wrote.
                text[column.ordinal()] = result.getString(i + 1);
            }
        }
        return RegistryColumn.toRow(text, RegistryColumn.wholeNumber(result.getString(present.size() + 1)));
    }

    /**
     * Binds the row's values for {@code columns}, in order, from parameter {@code first}: text as text,
     * an INTEGER column as a whole number, a missing value as NULL. Returns the next parameter's index.
     */
    static int bind(PreparedStatement statement, int first, List<RegistryColumn> columns, RegistryRow row)
            throws SQLException {
        int index = first;
        for (RegistryColumn column : columns) {
            statement.setObject(index++, column.valueOf(row));
        }
        return index;
    }
}
