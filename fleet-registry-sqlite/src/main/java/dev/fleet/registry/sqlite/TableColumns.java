package dev.fleet.registry.sqlite;

import dev.fleet.registry.schema.RegistryColumn;
import java.sql.Connection;
import java.util.List;
import java.util.Set;

/**
 * The columns {@code mcp_server_runtimes} really has in one file, as SQLite reports them. Other tools
 * create this table too, with the columns in another order, with columns of their own, or without
 * this project's additions, so every write and the writer's read-back go by these names, never by
 * position. The columns this project knows are {@link RegistryColumn}'s.
 */
final class TableColumns {

    private final Set<String> names;

    private TableColumns(Set<String> names) {
        this.names = names;
    }

    /** The columns of the table in {@code connection}'s file; none when it has no such table. */
    static TableColumns of(Connection connection) {
        // The read side's query: one way to ask SQLite for the columns.
        return new TableColumns(Set.copyOf(SqliteEngine.INSTANCE.columns(SqliteJooq.using(connection))));
    }

    boolean tableExists() {
        return !names.isEmpty();
    }

    boolean has(RegistryColumn column) {
        return names.contains(column.sqlName());
    }

    /** The columns every writer of the table has always written, in the table's declared order, that it lacks. */
    List<String> missingRequired() {
        return RegistryColumn.missingRequired(names);
    }

    /** This project's columns the table lacks; {@code registry migrate} adds them. */
    List<RegistryColumn> missingOwn() {
        return RegistryColumn.ALL.stream().filter(column -> column.isOwn() && !has(column)).toList();
    }

    /** The columns of ours that the table has, in {@link RegistryColumn}'s order, to read or write by name. */
    List<RegistryColumn> present() {
        return RegistryColumn.ALL.stream().filter(this::has).toList();
    }
}
