package dev.fleet.registry.sqlite;

import static dev.fleet.registry.sqlite.jooq.Tables.MCP_SERVER_RUNTIMES;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.jooq.DSLContext;
import org.jooq.Field;

/**
 * The columns {@code mcp_server_runtimes} really has in one file, as SQLite reports them. Other tools
 * create this table too, with the columns in another order, with columns of their own, or without
 * this project's additions, so every read and write goes by these names, never by position.
 *
 * <p>The column set itself is the generated table's: nothing here restates it.
 */
final class RegistryColumns {

    /** This project's own columns: where a table lacks one, readers see NULL and writers leave it out. */
    static final Set<Field<?>> OWN = Set.of(MCP_SERVER_RUNTIMES.PROCESS_STARTED_AT, MCP_SERVER_RUNTIMES.PID_NAMESPACE);

    static final String TABLE = MCP_SERVER_RUNTIMES.getName();

    private static final List<Field<?>> ALL = Arrays.asList(MCP_SERVER_RUNTIMES.fields());

    private final Set<String> names;

    private RegistryColumns(Set<String> names) {
        this.names = names;
    }

    /** The columns of the table in {@code ctx}'s file; none when it has no such table. */
    static RegistryColumns of(DSLContext ctx) {
        // jOOQ has no PRAGMA API: pragmas are the module's only plain SQL, and the table name is a constant.
        Set<String> names = ctx.fetch("PRAGMA table_info(" + MCP_SERVER_RUNTIMES.getName() + ")")
                .getValues("name", String.class).stream()
                .map(name -> name.toLowerCase(Locale.ROOT)) // SQLite column names are case-insensitive
                .collect(Collectors.toUnmodifiableSet());
        return new RegistryColumns(names);
    }

    boolean tableExists() {
        return !names.isEmpty();
    }

    boolean has(Field<?> column) {
        return names.contains(column.getName().toLowerCase(Locale.ROOT));
    }

    /** The columns every writer of the table has always written, in the table's declared order, that it lacks. */
    List<String> missingRequired() {
        return ALL.stream().filter(column -> !OWN.contains(column) && !has(column)).map(Field::getName).toList();
    }

    /** This project's columns the table lacks; {@code registry migrate} adds them. */
    List<String> missingOwn() {
        return ALL.stream().filter(column -> OWN.contains(column) && !has(column)).map(Field::getName).toList();
    }

    /** The columns of ours that the table has, to read or write by name. */
    List<Field<?>> present() {
        return ALL.stream().filter(this::has).toList();
    }

    /** What an operator is told about a table that lacks required columns. */
    static String describeMissing(List<String> missing) {
        return RowQuery.describeMissing(missing);
    }
}
