package dev.fleet.registry.sqlite;

import org.jooq.DSLContext;

/**
 * What SQLite itself says about a file, for the writer's "is it current?" check and the migration:
 * its journal mode, whether the registry's name is a view, and its {@code user_version}. Only
 * reads; the migration does the writes. (The assessment path does not use it: the reader asks
 * SQLite for the columns alone, through {@link RowQuery}.)
 */
final class SchemaCatalog {

    private SchemaCatalog() {
    }

    /** True when the file is in WAL mode, where writers never block readers. */
    static boolean isWal(DSLContext ctx) {
        return "wal".equalsIgnoreCase(String.valueOf(ctx.fetchValue("PRAGMA journal_mode")));
    }

    /** True when {@code name} is a view in this file, which no migration can alter. */
    static boolean isView(DSLContext ctx, String name) {
        return "view".equals(ctx.fetchValue("SELECT type FROM sqlite_master WHERE lower(name) = lower(?)", name));
    }

    /** {@code PRAGMA user_version}, in plain SQL as every pragma here is: jOOQ has no PRAGMA API. */
    static int userVersion(DSLContext ctx) {
        Object value = ctx.fetchValue("PRAGMA user_version");
        return value instanceof Number number ? number.intValue() : 0;
    }
}
