package dev.fleet.registry.schema;

import static dev.fleet.registry.schema.jooq.Tables.MCP_SERVER_RUNTIMES;

import dev.fleet.domain.RegistryRow;
import dev.fleet.registry.schema.jooq.tables.McpServerRuntimes;
import java.util.List;
import java.util.Set;
import org.jooq.Field;
import org.jooq.Record;

/**
 * {@link RegistryColumn}'s columns as the generated table's jOOQ fields, and the one mapping of a
 * fetched record to the domain's row, for both registry adapters. Columns are always named, never
 * taken by position in the table: a table another tool made may hold them in any order, hold columns
 * of its own, or lack this project's (then they are not selected, and read as NULL).
 */
public final class RegistryFields {

    /** The generated table. */
    public static final McpServerRuntimes TABLE = MCP_SERVER_RUNTIMES;

    private RegistryFields() {
    }

    /** {@code column}'s field in the generated table, typed as generated. */
    public static Field<?> of(RegistryColumn column) {
        return TABLE.field(column.sqlName());
    }

    /**
     * {@code column}'s field, read as text whatever its type: the same SQL, only the driver is asked
     * for a string (an INTEGER column's digits, a REAL as the engine renders it). Interpretation is
     * the domain's job.
     */
    public static Field<String> asText(RegistryColumn column) {
        return of(column).coerce(String.class);
    }

    /** The columns of ours among {@code names} (the table's, lower case), in {@link RegistryColumn}'s order. */
    public static List<RegistryColumn> present(Set<String> names) {
        return RegistryColumn.ALL.stream().filter(column -> names.contains(column.sqlName())).toList();
    }

    /**
     * The row in {@code record}, whose values are {@code selected}'s, in that order, each as text
     * (a selected INTEGER column as its digits, or NULL where the engine did not store a whole number
     * in it: each adapter's select decides that). A column not selected reads as NULL.
     */
    public static RegistryRow toRow(Record record, List<RegistryColumn> selected) {
        String[] text = new String[RegistryColumn.ALL.size()];
        for (int i = 0; i < selected.size(); i++) {
            text[selected.get(i).ordinal()] = (String) record.get(i);
        }
        return RegistryColumn.toRow(text, RegistryColumn.wholeNumber(text[RegistryColumn.PID.ordinal()]));
    }
}
