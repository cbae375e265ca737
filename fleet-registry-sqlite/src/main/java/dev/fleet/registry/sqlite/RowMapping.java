package dev.fleet.registry.sqlite;

import static dev.fleet.registry.schema.jooq.Tables.MCP_SERVER_RUNTIMES;

import dev.fleet.domain.RegistryRow;
import dev.fleet.registry.schema.RegistryColumn;
import dev.fleet.registry.schema.jooq.tables.McpServerRuntimes;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.SelectConditionStep;
import org.jooq.impl.SQLDataType;

/**
 * Column values to and from the domain's row through jOOQ, for the writer: as-is (interpretation is
 * the domain's job), always by column name, following {@link RegistryColumn}. The table may hold its
 * columns in any order, columns of other tools, or lack this project's own (then read as NULL, and
 * left out when writing).
 */
final class RowMapping {

    private static final McpServerRuntimes RUNTIMES = MCP_SERVER_RUNTIMES;
    /** The pid as SQLite stores it, so a pid that is not a whole number is seen as such. */
    private static final Field<String> PID_AS_TEXT = RUNTIMES.PID.cast(SQLDataType.VARCHAR).as("pid_as_text");
    /** Each column's generated field, found by name once. */
    private static final Map<RegistryColumn, Field<?>> FIELDS = fields();

    private RowMapping() {
    }

    /** The generated table's field for {@code column}. */
    static Field<?> field(RegistryColumn column) {
        return FIELDS.get(column);
    }

    /** Selects, by name, every column of ours the table has, for the rows {@code filter} names. */
    static SelectConditionStep<Record> selectRows(DSLContext ctx, TableColumns columns, Condition filter) {
        return ctx.select(columns.present()).select(PID_AS_TEXT).from(RUNTIMES).where(filter);
    }

    /**
     * The row as read, with the pid only when SQLite holds it as a whole number: jOOQ would read a
     * REAL {@code 12.7} another tool wrote as pid 12, a live-looking pid the row never named.
     */
    static RegistryRow toRow(Record record, TableColumns columns) {
        String[] text = new String[RegistryColumn.ALL.size()];
        for (RegistryColumn column : RegistryColumn.ALL) {
            if (column != RegistryColumn.PID && columns.has(column)) {
                // The writer reads back its own row, so another INTEGER column holds what it wrote.
                Object value = record.get(field(column));
                text[column.ordinal()] = value == null ? null : value.toString();
            }
        }
        return RegistryColumn.toRow(text, RegistryColumn.wholeNumber(record.get(PID_AS_TEXT)));
    }

    /** The row's values for the columns the table has, by name; the others are left out. */
    static Map<Field<?>, Object> values(RegistryRow row, TableColumns columns) {
        Map<Field<?>, Object> values = new LinkedHashMap<>();
        for (RegistryColumn column : RegistryColumn.ALL) {
            if (columns.has(column)) {
                values.put(field(column), column.valueOf(row));
            }
        }
        return values;
    }

    private static Map<RegistryColumn, Field<?>> fields() {
        Map<RegistryColumn, Field<?>> fields = new EnumMap<>(RegistryColumn.class);
        for (RegistryColumn column : RegistryColumn.ALL) {
            fields.put(column, Objects.requireNonNull(RUNTIMES.field(column.sqlName()), column.sqlName()));
        }
        return fields;
    }
}
