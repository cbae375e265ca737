package dev.fleet.registry.sqlite;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.lower;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.selectOne;
import static org.jooq.impl.DSL.table;
import static org.jooq.impl.DSL.val;

import dev.fleet.registry.schema.RegistryColumn;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record2;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * What SQLite itself says about a file, for the writer's "is it current?" check and the migration:
 * its journal mode, whether the registry's name is a view, how it declares the pids, and its {@code user_version}. It only
 * reads, through jOOQ (a pragma as a plain-SQL template: jOOQ has no pragma of its own). The
 * assessment path does not use it: the reader asks SQLite for the columns alone ({@link SqliteRows}).
 */
final class SchemaCatalog {

    /** {@code pragma_table_info}'s columns {@link #wholeNumbersNotKept} asks for, typed without the driver's metadata. */
    private static final Field<String> COLUMN_NAME = DSL.field(DSL.name("name"), SQLDataType.VARCHAR);
    private static final Field<String> COLUMN_TYPE = DSL.field(DSL.name("type"), SQLDataType.VARCHAR);

    private SchemaCatalog() {
    }

    /** True when the file is in WAL mode, where writers never block readers. */
    static boolean isWal(Connection connection) {
        return "wal".equalsIgnoreCase(first(SqliteJooq.using(connection), "PRAGMA journal_mode"));
    }

    /**
     * True when {@code viewName} is a view in this file, which no migration can alter. Asked of the
     * views alone: a trigger may bear the same name, and its row may come first.
     */
    static boolean isView(Connection connection, String viewName) {
        return SqliteJooq.using(connection).fetchExists(selectOne().from(table(name("sqlite_master")))
                .where(field(name("type"), String.class).eq("view"))
                .and(lower(field(name("name"), String.class)).eq(lower(val(viewName)))));
    }

    /**
     * This project's whole-number columns ({@code pid}, {@code parent_pid}, {@code server_pid}) that the table
     * declares with a type SQLite keeps other values in, each as {@code name TYPE}: a type of TEXT or REAL affinity
     * (naming CHAR, CLOB or TEXT, or REAL, FLOA or DOUB, and no INT: SQLite's rules, in that order). A pid written
     * there is kept as text or as a real, which a read takes for no process: every registration would read back
     * as malformed.
     */
    static List<String> wholeNumbersNotKept(Connection connection) {
        List<String> notKept = new ArrayList<>();
        for (Record2<String, String> column : SqliteJooq.using(connection)
                .resultQuery("SELECT name, type FROM pragma_table_info({0})", val(SqliteRows.TABLE))
                .coerce(COLUMN_NAME, COLUMN_TYPE).fetch()) {
            String type = String.valueOf(column.value2()).toUpperCase(Locale.ROOT);
            boolean wholeNumber = RegistryColumn.ALL.stream()
                    .anyMatch(ours -> ours.isInteger() && ours.sqlName().equalsIgnoreCase(column.value1()));
            boolean keptOtherwise = !type.contains("INT") && Stream.of("CHAR", "CLOB", "TEXT", "REAL", "FLOA", "DOUB")
                    .anyMatch(type::contains);
            if (wholeNumber && keptOtherwise) {
                notKept.add(column.value1() + " " + column.value2());
            }
        }
        return notKept;
    }

    /** {@code PRAGMA user_version}; 0 when SQLite gives nothing. */
    static int userVersion(Connection connection) {
        String value = first(SqliteJooq.using(connection), "PRAGMA user_version");
        return value == null ? 0 : Integer.parseInt(value);
    }

    /** The first value a pragma answers with, as text; {@code pragma} is one of this module's constants. */
    static String first(DSLContext ctx, String pragma) {
        return ctx.resultQuery(pragma).fetchOptional(0, String.class).orElse(null);
    }
}
