package dev.fleet.registry.schema;

import dev.fleet.domain.RegistryRow;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.SelectJoinStep;

/**
 * One select of the registry's rows, by column name, on either engine: the columns of ours the table
 * has, each as text, and the mapping of a fetched record back to the domain's row. Where each reader
 * runs it (SQLite's bounded lazy cursor, PostgreSQL's read-only transaction and its timeout) stays its own.
 *
 * @param columns the columns selected, in {@link RegistryColumn}'s order
 * @param fields the same columns as the select's fields, in the same order
 */
public record RegistrySelect(List<RegistryColumn> columns, List<Field<String>> fields) {

    public RegistrySelect {
        columns = List.copyOf(columns);
        fields = List.copyOf(fields);
    }

    /**
     * The readers' select, and the writer's read-back of the row it just wrote: every INTEGER column only
     * where {@code engine} stores a whole number in it, every other column as it is. A pid the table does
     * not hold as a whole number reads as none, so the row is malformed and the registration fails saying
     * so, rather than succeed with a row every assessment would read as malformed.
     */
    public static RegistrySelect reading(RegistryEngine engine, List<RegistryColumn> columns) {
        return new RegistrySelect(columns, columns.stream()
                .map(column -> column.isInteger() ? engine.wholeNumber(column) : RegistryFields.asText(column))
                .toList());
    }

    /** {@code SELECT} these fields {@code FROM} the table: the caller adds what it needs and fetches. */
    public SelectJoinStep<Record> from(DSLContext ctx) {
        return ctx.select(fields).from(RegistryFields.TABLE);
    }

    /** The row a record of this select holds. */
    public RegistryRow toRow(Record record) {
        return RegistryFields.toRow(record, columns);
    }
}
