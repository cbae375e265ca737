package dev.fleet.registry.sqlite;

import dev.fleet.domain.RegistryRow;
import dev.fleet.registry.schema.RegistryColumn;
import dev.fleet.registry.schema.RegistryFields;
import dev.fleet.registry.schema.RegistrySelect;
import dev.fleet.registry.schema.RowTally;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jooq.Cursor;
import org.jooq.DSLContext;
import org.jooq.Record;

/**
 * The reader's rows as SQLite holds them, through jOOQ's generated table (queries only): the shared
 * select ({@link RegistrySelect}, with {@link SqliteEngine}'s {@code typeof}) run within
 * {@link ReadBounds}. The columns are {@link RegistryColumn}'s, selected by name and only those the
 * table has: a foreign table may hold them in any order, add its own, or lack this project's own (then
 * read as NULL).
 */
final class SqliteRows {

    /** The table's name, as the generated table has it. */
    static final String TABLE = RegistryFields.TABLE.getName();

    private SqliteRows() {
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
     * and counted as they come. No WHERE and no ORDER BY: the caller filters and sorts in Java
     * ({@code RowOrder.listed}), so a corrupted index cannot hide rows from a filtered listing that an
     * assessment sees, and an endless view is never sorted through temporary files.
     */
    static List<RegistryRow> select(DSLContext ctx, Set<String> present) throws ReadBounds.ReadRefused {
        RegistrySelect select = reading(RegistryFields.present(present));
        int width = select.fields().size();
        List<RegistryRow> rows = new ArrayList<>();
        RowTally tally = new RowTally();
        try (Cursor<Record> cursor = select.from(ctx).fetchLazy()) {
            for (Record record : cursor) {
                tally.row();
                for (int i = 0; i < width; i++) {
                    tally.text((String) record.get(i));
                }
                rows.add(select.toRow(record));
            }
        } catch (RowTally.Exceeded e) {
            throw new ReadBounds.ReadBoundExceeded(e.getMessage());
        }
        return rows;
    }

    private static RegistrySelect reading(List<RegistryColumn> columns) {
        return RegistrySelect.reading(SqliteEngine.INSTANCE, columns);
    }

    /** Holds {@link #ready}'s work: a class is initialised once, and its first user waits for it. */
    private static final class Ready {
        static {
            try (Connection memory = SqliteFiles.inMemory()) {
                DSLContext ctx = SqliteJooq.using(memory);
                SqliteEngine.INSTANCE.columns(ctx);
                ctx.render(reading(RegistryColumn.ALL).from(ctx));
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
}
