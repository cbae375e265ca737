package dev.fleet.registry.sqlite;

import dev.fleet.registry.schema.RegistryColumn;
import dev.fleet.registry.schema.RegistryEngine;
import dev.fleet.registry.schema.RegistryFields;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record1;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * SQLite's part of the registry's shared SQL: {@code pragma_table_info} names the columns, {@code
 * typeof} tells a whole number from the other values an untyped column holds, and a heartbeat records
 * the writer's own timestamp (a file on one host has no clock of its own). Both are SQLite's own, so
 * they are jOOQ plain-SQL templates.
 */
enum SqliteEngine implements RegistryEngine {
    INSTANCE;

    /**
     * {@code pragma_table_info}'s column of names, the one {@link #columns} asks for: coerced to it, the
     * query is typed without asking the driver for the result's metadata.
     */
    private static final Field<String> COLUMN_NAME = DSL.field(DSL.name("name"), SQLDataType.VARCHAR);

    /**
     * The columns the file's table (or view) has, lower case as SQLite compares them, or none when
     * there is no such table. {@code pragma_table_info} is the table-valued form of {@code PRAGMA
     * table_info}, so the name is a bind value.
     */
    @Override
    public Set<String> columns(DSLContext ctx) {
        Set<String> names = new HashSet<>();
        for (String name : ctx.resultQuery("SELECT name FROM pragma_table_info({0})", DSL.val(SqliteRows.TABLE))
                .coerce(COLUMN_NAME).fetch(Record1::value1)) {
            names.add(name.toLowerCase(Locale.ROOT));
        }
        return names;
    }

    /**
     * The column as text only when SQLite stores an integer in it (a REAL 12.7 would read as pid 12), NULL
     * as NULL, and anything else as {@code -1}: a value that is there but names no process, which the
     * domain must not take for an unknown one ({@link RegistryColumn#wholeNumber}).
     */
    @Override
    public Field<String> wholeNumber(RegistryColumn column) {
        Field<String> value = RegistryFields.asText(column);
        return DSL.case_(DSL.field("typeof({0})", String.class, value)).when(DSL.inline("integer"), value)
                .when(DSL.inline("null"), DSL.inline((String) null)).otherwise(DSL.inline(RegistryColumn.NO_PROCESS));
    }

    /** The writer's timestamp, as it wrote it. */
    @Override
    public Field<String> heartbeat(String ours) {
        return DSL.val(ours, RegistryFields.TABLE.LAST_HEARTBEAT_AT);
    }
}
