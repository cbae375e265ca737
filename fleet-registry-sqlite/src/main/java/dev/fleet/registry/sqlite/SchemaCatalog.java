package dev.fleet.registry.sqlite;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.lower;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.selectOne;
import static org.jooq.impl.DSL.table;
import static org.jooq.impl.DSL.val;

import java.sql.Connection;
import org.jooq.DSLContext;

/**
 * What SQLite itself says about a file, for the writer's "is it current?" check and the migration:
 * its journal mode, whether the registry's name is a view, and its {@code user_version}. It only
 * reads, through jOOQ (a pragma as a plain-SQL template: jOOQ has no pragma of its own). The
 * assessment path does not use it: the reader asks SQLite for the columns alone ({@link SqliteRows}).
 */
final class SchemaCatalog {

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
