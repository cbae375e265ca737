package dev.fleet.registry.sqlite;

import dev.fleet.domain.RegistryRow;
import dev.fleet.registry.schema.RegistryColumn;
import dev.fleet.registry.schema.RegistryFields;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jooq.Cursor;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Record1;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * The table's rows and columns as SQLite holds them, through jOOQ's generated table (queries only):
 * what the reader selects, and the columns the writer and its migration go by. The columns are
 * {@link RegistryColumn}'s, selected by name and only those the table has: a foreign table may hold
 * them in any order, add its own, or lack this project's own (then read as NULL).
 */
final class SqliteRows {

    /** The table's name, as the generated table has it. */
    static final String TABLE = RegistryFields.TABLE.getName();

    /**
     * {@code pragma_table_info}'s column of names, the one {@link #columnsOf} asks for: coerced to it,
     * the query is typed without asking the driver for the result's metadata.
     */
    private static final Field<String> COLUMN_NAME = DSL.field(DSL.name("name"), SQLDataType.VARCHAR);

    private SqliteRows() {
    }

    /**
     * The columns the file's table (or view) has, lower case as SQLite compares them, or none when
     * there is no such table. {@code pragma_table_info} is the table-valued form of {@code PRAGMA
     * table_info}, so the name is a bind value.
     */
    static Set<String> columnsOf(DSLContext ctx) {
        Set<String> names = new HashSet<>();
        for (String name : ctx.resultQuery("SELECT name FROM pragma_table_info({0})", DSL.val(TABLE))
                .coerce(COLUMN_NAME).fetch(Record1::value1)) {
            names.add(name.toLowerCase(Locale.ROOT));
        }
        return names;
    }

    /**
     * Makes jOOQ ready in this JVM (its classes, the SQLite dialect's rendering, binding and fetching)
     * by asking an empty database in memory, which touches no file, for its columns and rendering the
     * full select: once, on whichever thread comes first, the others waiting for it (class
     * initialisation). A read calls this before its clock starts, so that {@link ReadBounds#READ_TIME}
     * bounds the work on the file, not this JVM's loading of classes: four cold JVMs on two busy cores
     * were seen to spend over 3 s there. Never throws: a read meets the same failure and reports it.
     */
    static void ready() {
        Ready.now();
    }

    /** What an operator is told about a table that lacks required columns. */
    static String describeMissing(List<String> missing) {
        return TABLE + " lacks column" + (missing.size() == 1 ? " " : "s ") + String.join(", ", missing);
    }

    /**
     * Every row, in the table's own order, within {@link ReadBounds}: rows are fetched one at a time
     * and counted as they come. No WHERE and no ORDER BY: the caller filters and sorts in Java, so a
     * corrupted index cannot hide rows from a filtered listing that an assessment sees, and an endless
     * view is never sorted through temporary files.
     */
    static List<RegistryRow> select(DSLContext ctx, Set<String> present) throws ReadBounds.ReadRefused {
        List<RegistryColumn> selected = RegistryFields.present(present);
        List<Field<String>> fields = selected.stream().map(SqliteRows::asRead).toList();
        List<RegistryRow> rows = new ArrayList<>();
        ReadBounds.Tally tally = new ReadBounds.Tally();
        try (Cursor<Record> cursor = ctx.select(fields).from(RegistryFields.TABLE).fetchLazy()) {
            for (Record record : cursor) {
                tally.row();
                for (int i = 0; i < fields.size(); i++) {
                    tally.text((String) record.get(i));
                }
                rows.add(RegistryFields.toRow(record, selected));
            }
        }
        return rows;
    }

    /** Holds {@link #ready}'s work: a class is initialised once, and its first user waits for it. */
    private static final class Ready {
        static {
            try (Connection memory = SqliteFiles.inMemory()) {
                DSLContext ctx = SqliteJooq.using(memory);
                columnsOf(ctx);
                ctx.render(ctx.select(RegistryColumn.ALL.stream().map(SqliteRows::asRead).toList())
                        .from(RegistryFields.TABLE));
            } catch (Exception | LinkageError e) {
                // Only a head start: the read that follows meets the same failure and reports it.
            }
        }

        private Ready() {
        }

        static void now() {
            // Nothing more: calling this initialises the class, once.
        }
    }

    /**
     * {@code column} as the reader selects it, as text: an INTEGER column only when SQLite stores a
     * whole number in it (a REAL 12.7 would read as pid 12, and the text '015494' or a BLOB of digits
     * as a live-looking pid, none of which the row really named), every other column as it is.
     * {@code typeof} is SQLite's own, so it is jOOQ's plain-SQL template.
     */
    static Field<String> asRead(RegistryColumn column) {
        Field<String> value = RegistryFields.asText(column);
        return column.isInteger()
                ? DSL.case_(DSL.field("typeof({0})", String.class, value)).when(DSL.inline("integer"), value)
                : value;
    }
}
