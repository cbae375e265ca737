package dev.fleet.registry.sqlite;

import org.jooq.DSLContext;

/**
 * What SQLite itself says about a file: its journal mode and its {@code user_version}. Read-only,
 * so the assessment path may use it; the migration does the writes.
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

    /** jOOQ has no PRAGMA API: pragmas are the module's only plain SQL. */
    static int userVersion(DSLContext ctx) {
        Object value = ctx.fetchValue("PRAGMA user_version");
        return value instanceof Number number ? number.intValue() : 0;
    }
}
