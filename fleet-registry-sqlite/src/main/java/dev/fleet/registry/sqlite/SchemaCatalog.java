package dev.fleet.registry.sqlite;

import java.util.Locale;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * What SQLite itself says about a file: which tables exist, its journal mode and its
 * {@code user_version}. Read-only, so the assessment path may use it; the migration does the writes.
 * {@code sqlite_master} is SQLite's own catalog (not a table of ours), so it is named here rather
 * than generated.
 */
final class SchemaCatalog {

    private static final Table<?> SQLITE_MASTER = DSL.table(DSL.name("sqlite_master"));
    private static final Field<String> TYPE = DSL.field(DSL.name("type"), String.class);
    private static final Field<String> NAME = DSL.field(DSL.name("name"), String.class);

    private SchemaCatalog() {
    }

    /** SQLite names are case-insensitive, and other tools may have spelled ours differently. */
    static boolean tableExists(DSLContext ctx, Table<?> table) {
        return ctx.fetchExists(DSL.selectOne().from(SQLITE_MASTER)
                .where(TYPE.eq("table"))
                .and(DSL.lower(NAME).eq(table.getName().toLowerCase(Locale.ROOT))));
    }

    /** True when the file is in WAL mode, where writers never block readers. */
    static boolean isWal(DSLContext ctx) {
        return "wal".equalsIgnoreCase(String.valueOf(ctx.fetchValue("PRAGMA journal_mode")));
    }

    /** jOOQ has no PRAGMA API: pragmas are the module's only plain SQL. */
    static int userVersion(DSLContext ctx) {
        Object value = ctx.fetchValue("PRAGMA user_version");
        return value instanceof Number number ? number.intValue() : 0;
    }
}
