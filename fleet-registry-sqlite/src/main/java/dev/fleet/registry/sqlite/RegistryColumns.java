package dev.fleet.registry.sqlite;

import static dev.fleet.registry.sqlite.jooq.Tables.MCP_SERVER_RUNTIMES;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jooq.DSLContext;
import org.jooq.Field;

/**
 * The columns {@code mcp_server_runtimes} really has in one file, as SQLite reports them. Other tools
 * create this table too, with the columns in another order, with columns of their own, or without
 * this project's additions, so every read and write goes by these names, never by position.
 *
 * <p>The column set itself is the generated table's, as {@link RowQuery} names it for the read side
 * (RowQueryTest holds the two equal).
 */
final class RegistryColumns {

    /** This project's own columns: where a table lacks one, readers see NULL; a writer's migration adds it. */
    static final Set<Field<?>> OWN = Set.of(MCP_SERVER_RUNTIMES.PROCESS_STARTED_AT, MCP_SERVER_RUNTIMES.PID_NAMESPACE,
            MCP_SERVER_RUNTIMES.ENDPOINT);

    private static final List<Field<?>> ALL = Arrays.asList(MCP_SERVER_RUNTIMES.fields());

    private final Set<String> names;

    private RegistryColumns(Set<String> names) {
        this.names = names;
    }

    /** The columns of the table in {@code ctx}'s file; none when it has no such table. */
    static RegistryColumns of(DSLContext ctx) {
        // The read side's PRAGMA reader, on the same connection: one way to ask SQLite for the columns.
        return new RegistryColumns(Set.copyOf(ctx.connectionResult(connection -> RowQuery.columnsOf(connection))));
    }

    boolean tableExists() {
        return !names.isEmpty();
    }

    boolean has(Field<?> column) {
        return names.contains(column.getName().toLowerCase(Locale.ROOT));
    }

    /** The columns every writer of the table has always written, in the table's declared order, that it lacks. */
    List<String> missingRequired() {
        return RowQuery.missingRequired(names);
    }

    /** This project's columns the table lacks; {@code registry migrate} adds them. */
    List<String> missingOwn() {
        return ALL.stream().filter(column -> OWN.contains(column) && !has(column)).map(Field::getName).toList();
    }

    /** The columns of ours that the table has, to read or write by name. */
    List<Field<?>> present() {
        return ALL.stream().filter(this::has).toList();
    }
}
