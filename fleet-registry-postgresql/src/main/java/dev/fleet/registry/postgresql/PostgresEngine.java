package dev.fleet.registry.postgresql;

import dev.fleet.registry.schema.RegistryColumn;
import dev.fleet.registry.schema.RegistryEngine;
import dev.fleet.registry.schema.RegistryFields;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record2;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * PostgreSQL's part of the registry's shared SQL: {@code pg_catalog} names the columns, {@code
 * pg_typeof} tells a whole number from a foreign table's text, and a heartbeat records the database's
 * clock, so that the lease of a row is never judged across two hosts' clocks.
 */
enum PostgresEngine implements RegistryEngine {
    INSTANCE;

    /** The table's name, as the generated table has it. */
    static final String TABLE = RegistryFields.TABLE.getName();

    /** The catalog's answers {@link #relation} and {@link #runsFunctions} read, typed without asking the driver for metadata. */
    private static final Field<String> COLUMN = DSL.field(DSL.name("column_name"), SQLDataType.VARCHAR);
    private static final Field<String> TYPE = DSL.field(DSL.name("column_type"), SQLDataType.VARCHAR);
    private static final Field<String> KIND = DSL.field(DSL.name("relation_kind"), SQLDataType.VARCHAR);
    private static final Field<Boolean> ROW_SECURITY = DSL.field(DSL.name("row_security"), SQLDataType.BOOLEAN);

    /** The database's now, in the contract's timestamp format ({@code 2026-07-28T02:00:00.250Z}). */
    private static final Field<String> DATABASE_NOW = DSL.field(
            "to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')", String.class);

    /**
     * The table's columns in its schema, as the catalog names them (jOOQ quotes every name it renders, so a
     * column another tool named {@code "Pid"} is not {@code pid}). From
     * the catalog, which shows every role every table: {@code information_schema} shows a role only the
     * columns it may use, so a role without SELECT would find no table there and read {@code missing},
     * where reading it is {@code access_denied} (issue 45).
     */
    @Override
    public Set<String> columns(DSLContext ctx) {
        return new LinkedHashSet<>(ctx.resultQuery("SELECT a.attname FROM pg_catalog.pg_attribute a "
                + "JOIN pg_catalog.pg_class c ON c.oid = a.attrelid "
                + "JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = {1} "
                + "AND c.relname = {0} AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND a.attnum > 0 AND NOT a.attisdropped "
                + "ORDER BY a.attnum", DSL.val(TABLE), DSL.val(PostgresJooq.SCHEMA)).fetch(0, String.class));
    }

    /**
     * What the registry's name is in its schema, when it is something other than a table: "a
     * view", "a materialized view", "a foreign table"; empty for a table (plain or partitioned) or nothing. A view's
     * or foreign table's functions run with the reader's rights, which a read-only transaction does not confine
     * ({@code COPY ... TO PROGRAM}), so fleet reads and migrates a table only.
     */
    static Optional<String> notATable(DSLContext ctx) {
        return relation(ctx).flatMap(Relation::notATable);
    }

    /**
     * What would make reading the registry run functions another role wrote, with the reader's rights: not a table
     * ({@link #notATable}), a table with row-level security (its policies' expressions run for the reader), or one of
     * fleet's columns of a type that is not PostgreSQL's own (reading it as text may call a cast's function). Empty
     * when none does.
     */
    static Optional<String> runsFunctions(DSLContext ctx) {
        Optional<Relation> relation = relation(ctx);
        Optional<String> notATable = relation.flatMap(Relation::notATable);
        if (notATable.isPresent()) {
            return Optional.of(notATable.get() + ", not a table");
        }
        if (relation.map(Relation::rowSecurity).orElse(false)) {
            return Optional.of("a table with row-level security");
        }
        Set<String> ours = new HashSet<>();
        RegistryColumn.ALL.forEach(column -> ours.add(column.sqlName()));
        for (Record2<String, String> column : ctx.resultQuery("SELECT a.attname AS column_name, format_type(a.atttypid, NULL) AS column_type "
                + "FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class c ON c.oid = a.attrelid "
                + "JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
                + "JOIN pg_catalog.pg_type t ON t.oid = a.atttypid "
                + "JOIN pg_catalog.pg_namespace tn ON tn.oid = t.typnamespace WHERE n.nspname = {1} "
                + "AND c.relname = {0} AND a.attnum > 0 AND NOT a.attisdropped AND tn.nspname <> 'pg_catalog'",
                DSL.val(TABLE), DSL.val(PostgresJooq.SCHEMA)).coerce(COLUMN, TYPE).fetch()) {
            if (ours.contains(column.value1())) {
                return Optional.of("a table whose column " + column.value1() + " is of type " + column.value2()
                        + ", not one of PostgreSQL's own");
            }
        }
        return Optional.empty();
    }

    /**
     * fleet's columns that the table declares with a type fleet's writers cannot write, each as {@code name TYPE}:
     * a pid column ({@link RegistryColumn#isInteger}) that is not {@code integer} or {@code bigint} (a {@code
     * smallint} ends at 32767, and Linux numbers processes up to 4194304), any other that is not of PostgreSQL's
     * string types ({@code text}, {@code varchar}, {@code char}).
     * Every registration into such a table fails ({@code text = bigint}, a timestamp given a string), so a
     * migration that called it current would leave every server unregistered.
     */
    static List<String> unwritableColumns(DSLContext ctx) {
        List<String> unwritable = new ArrayList<>();
        for (Record2<String, String> column : ctx.resultQuery("SELECT a.attname AS column_name, "
                + "CASE WHEN t.typname IN ('int4', 'int8') THEN 'integer' WHEN t.typcategory = 'S' "
                + "THEN 'text' ELSE format_type(a.atttypid, a.atttypmod) END AS column_type "
                + "FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class c ON c.oid = a.attrelid "
                + "JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
                + "JOIN pg_catalog.pg_type t ON t.oid = a.atttypid WHERE n.nspname = {1} "
                + "AND c.relname = {0} AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum",
                DSL.val(TABLE), DSL.val(PostgresJooq.SCHEMA)).coerce(COLUMN, TYPE).fetch()) {
            RegistryColumn.ALL.stream().filter(ours -> ours.sqlName().equals(column.value1())).findFirst()
                    .filter(ours -> !column.value2().equals(ours.isInteger() ? "integer" : "text"))
                    .ifPresent(ours -> unwritable.add(column.value1() + " " + column.value2()));
        }
        return unwritable;
    }

    /**
     * A schema other than the registry's holding a table of its name, or empty: a registry made before fleet named
     * its schema, where the search path put it (a schema named for the role, say). Never read nor migrated around:
     * a second registry beside it would split the fleet's servers between two tables.
     */
    static Optional<String> elsewhere(DSLContext ctx) {
        return ctx.resultQuery("SELECT n.nspname FROM pg_catalog.pg_class c "
                + "JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE c.relname = {0} AND n.nspname <> {1} "
                + "AND c.relkind IN ('r', 'p') AND n.nspname <> 'information_schema' AND n.nspname NOT LIKE 'pg\\_%' "
                + "ORDER BY n.nspname LIMIT 1", DSL.val(TABLE), DSL.val(PostgresJooq.SCHEMA)).fetchOptional(0, String.class);
    }

    /** What to do about a registry {@link #elsewhere}: one line, for a read's detail and a migration's refusal. */
    static String movedBy(String schema) {
        return "schema " + schema + " holds " + TABLE + ", and fleet keeps it in " + PostgresJooq.SCHEMA + ": move it ("
                + "ALTER TABLE " + schema + "." + TABLE + " SET SCHEMA " + PostgresJooq.SCHEMA
                + ", and Liquibase's databasechangelog and databasechangeloglock with it)";
    }

    /** The registry's name in its schema, as the catalog has it: one round trip, or empty. */
    private static Optional<Relation> relation(DSLContext ctx) {
        return ctx.resultQuery("SELECT c.relkind::text AS relation_kind, c.relrowsecurity AS row_security "
                + "FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
                + "WHERE n.nspname = {1} AND c.relname = {0}", DSL.val(TABLE), DSL.val(PostgresJooq.SCHEMA))
                .coerce(KIND, ROW_SECURITY).fetchOptional()
                .map(row -> new Relation(row.value1(), Boolean.TRUE.equals(row.value2())));
    }

    /** A relation's kind ({@code pg_class.relkind}) and whether row-level security is on for it. */
    private record Relation(String kind, boolean rowSecurity) {

        /** What the relation is when it is no table (plain or partitioned); empty for a table. */
        Optional<String> notATable() {
            return Optional.ofNullable(switch (kind) {
                case "r", "p" -> null;
                case "v" -> "a view";
                case "m" -> "a materialized view";
                case "f" -> "a foreign table";
                default -> "no table (relkind " + kind + ")";
            });
        }
    }

    /** {@link #columns(DSLContext)} on a connection the caller owns. */
    static Set<String> columnsOf(Connection connection) {
        return INSTANCE.columns(PostgresJooq.using(connection));
    }

    /**
     * The column, as text, only where the table stores it as a whole number, NULL as NULL, and anything
     * else (a foreign table's text or numeric pid) as {@link RegistryColumn#NO_PROCESS}.
     */
    @Override
    public Field<String> wholeNumber(RegistryColumn column) {
        Field<?> value = RegistryFields.of(column);
        return DSL.when(value.isNull(), DSL.inline((String) null))
                .when(DSL.field("pg_typeof({0})::text", String.class, value).in("smallint", "integer", "bigint"),
                        value.cast(SQLDataType.VARCHAR))
                .otherwise(DSL.inline(RegistryColumn.NO_PROCESS));
    }

    /** The database's clock, whatever the writer's says. */
    @Override
    public Field<String> heartbeat(String ours) {
        return DATABASE_NOW;
    }
}
