package dev.fleet.registry.schema;

import dev.fleet.domain.RegistryRow;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * The columns of {@code mcp_server_runtimes}, in the generated table's order (RegistryColumnTest holds
 * the two equal): the one list the readers' SELECT, the mapping of a row both ways, the writer's values,
 * the migration's added columns and {@code fleet registry list} all follow. A new column is a
 * constant here, beside its component in {@link RegistryRow} and its change set in the changelog.
 *
 * <p>Each constant names its jOOQ field in the generated table ({@link RegistryFields}); a row's values
 * are gathered in an array indexed by {@link #ordinal()}. Both registry adapters follow this one
 * list; neither knows the other.
 */
public enum RegistryColumn {
    RUNTIME_ID(Origin.SHARED, RegistryRow::runtimeId),
    NAMESPACE(Origin.SHARED, RegistryRow::namespace),
    PROFILE(Origin.SHARED, RegistryRow::profile),
    ROLE(Origin.SHARED, RegistryRow::role),
    REMOTE(Origin.SHARED, RegistryRow::remote),
    ORG(Origin.SHARED, RegistryRow::org),
    REPO(Origin.SHARED, RegistryRow::repo),
    REPOSITORY_ROOT(Origin.SHARED, RegistryRow::repositoryRoot),
    /** An INTEGER column; read only when the engine stores a whole number in it ({@link #isInteger}). */
    PID(Origin.SHARED, RegistryRow::pid),
    COHORT_ID(Origin.SHARED, RegistryRow::cohortId),
    COHORT_SOURCE(Origin.SHARED, RegistryRow::cohortSource),
    CLIENT_PROVENANCE(Origin.SHARED, RegistryRow::clientProvenance),
    BOOT_ID(Origin.SHARED, RegistryRow::bootId),
    PROCESS_STARTED_AT(Origin.OWN, RegistryRow::processStartedAt),
    STARTUP_HEAD(Origin.SHARED, RegistryRow::startupHead),
    TRANSPORT(Origin.SHARED, RegistryRow::transport),
    STATUS(Origin.SHARED, RegistryRow::status),
    REGISTERED_AT(Origin.SHARED, RegistryRow::registeredAt),
    LAST_HEARTBEAT_AT(Origin.SHARED, RegistryRow::lastHeartbeatAt),
    STOPPED_AT(Origin.SHARED, RegistryRow::stoppedAt),
    /** Not in {@code fleet registry list}'s JSON, whose shape predates it (see {@link #LISTED}). */
    PID_NAMESPACE(Origin.OWN, RegistryRow::pidNamespace),
    ENDPOINT(Origin.OWN, RegistryRow::endpoint),
    /**
     * The server's parent (its client over stdio), INTEGER like {@link #PID} and read the same way: only
     * a whole number SQLite stores as one. Like {@link #PARENT_STARTED_AT}, not in {@code fleet registry
     * list}'s JSON, whose shape predates it (see {@link #LISTED}); the verdict shows both for an orphan.
     */
    PARENT_PID(Origin.OWN, RegistryRow::parentPid),
    PARENT_STARTED_AT(Origin.OWN, RegistryRow::parentStartedAt),
    /** The registering host (docs/CONTRACT.md, "Many hosts"): a row of another host is judged by its lease. */
    HOST_ID(Origin.OWN, RegistryRow::hostId),
    /**
     * The server a {@code fleet serve -- COMMAND} member wraps: its argv with secrets masked, its pid (INTEGER,
     * read like {@link #PARENT_PID}) and its start. Not in {@code fleet registry list}'s JSON, whose shape
     * predates them (see {@link #LISTED}); the verdict shows the command and the pid.
     */
    SERVER_COMMAND(Origin.OWN, RegistryRow::serverCommand),
    SERVER_PID(Origin.OWN, RegistryRow::serverPid),
    SERVER_STARTED_AT(Origin.OWN, RegistryRow::serverStartedAt);

    /** Every column, in the table's order: {@code values()} without a fresh array at each use. */
    public static final List<RegistryColumn> ALL = List.of(values());
    /** The columns {@code fleet registry list --format json} prints for a row, in this order. */
    public static final List<RegistryColumn> LISTED = ALL.stream()
            .filter(column -> column != PID_NAMESPACE && column != PARENT_PID && column != PARENT_STARTED_AT
                    && column != SERVER_COMMAND && column != SERVER_PID && column != SERVER_STARTED_AT)
            .toList();

    /** Who defines the column: every writer of the table, or this project alone (added by its migration). */
    private enum Origin { SHARED, OWN }

    private final String sqlName;
    private final Origin origin;
    private final Function<RegistryRow, Object> value;

    RegistryColumn(Origin origin, Function<RegistryRow, Object> value) {
        this.sqlName = name().toLowerCase(Locale.ROOT);
        this.origin = origin;
        this.value = value;
    }

    /** The column's name in SQL (and in the list's JSON): the constant's name in lower case. */
    public String sqlName() {
        return sqlName;
    }

    /** The row's value for this column, as stored: a String, or for an INTEGER column a Long; null for none. */
    public Object valueOf(RegistryRow row) {
        return value.apply(row);
    }

    /** This project's own column: a table another tool made may lack it (read as NULL, added by the migration). */
    public boolean isOwn() {
        return origin == Origin.OWN;
    }

    /** The SQL type the migration gives the column when it adds it to another tool's table. */
    public String sqlType() {
        return isInteger() ? "INTEGER" : "TEXT";
    }

    /** An INTEGER column: its value is read only when SQLite stores a whole number in it. */
    public boolean isInteger() {
        return this == PID || this == PARENT_PID || this == SERVER_PID;
    }

    /** The required columns (all but this project's own) that {@code present} lacks, in the table's order. */
    public static List<String> missingRequired(Set<String> present) {
        return ALL.stream().filter(column -> !column.isOwn() && !present.contains(column.sqlName))
                .map(RegistryColumn::sqlName).toList();
    }

    /**
     * The row whose text columns are {@code text}, indexed by {@link #ordinal()} (null where the table
     * lacks the column; an INTEGER column other than the pid as its digits), and whose pid is {@code pid}.
     * The one place a row is built from column values.
     */
    public static RegistryRow toRow(String[] text, Long pid) {
        return new RegistryRow(text[RUNTIME_ID.ordinal()], text[NAMESPACE.ordinal()], text[PROFILE.ordinal()],
                text[ROLE.ordinal()], text[REMOTE.ordinal()], text[ORG.ordinal()], text[REPO.ordinal()],
                text[REPOSITORY_ROOT.ordinal()], pid, text[COHORT_ID.ordinal()], text[COHORT_SOURCE.ordinal()],
                text[CLIENT_PROVENANCE.ordinal()], text[BOOT_ID.ordinal()], text[PROCESS_STARTED_AT.ordinal()],
                text[STARTUP_HEAD.ordinal()], text[TRANSPORT.ordinal()], text[STATUS.ordinal()],
                text[REGISTERED_AT.ordinal()], text[LAST_HEARTBEAT_AT.ordinal()], text[STOPPED_AT.ordinal()],
                text[PID_NAMESPACE.ordinal()], text[ENDPOINT.ordinal()], wholeNumber(text[PARENT_PID.ordinal()]),
                text[PARENT_STARTED_AT.ordinal()], text[HOST_ID.ordinal()], text[SERVER_COMMAND.ordinal()],
                wholeNumber(text[SERVER_PID.ordinal()]), text[SERVER_STARTED_AT.ordinal()]);
    }

    /** What a pid column holding no integer reads as: present, and naming no process. */
    public static final String NO_PROCESS = "-1";

    /**
     * {@code -?\d{1,18}} as a Long, null as null, anything else as {@value #NO_PROCESS} (no regex: this runs
     * once per row). A value that is there but is no pid must not read as an unknown one: a parent or
     * server recorded as {@code 'x'} would exempt its row from the orphan and exited-server rules.
     */
    public static Long wholeNumber(String text) {
        if (text == null) {
            return null;
        }
        int start = text.startsWith("-") ? 1 : 0;
        int digits = text.length() - start;
        if (digits < 1 || digits > 18) {
            return Long.parseLong(NO_PROCESS);
        }
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return Long.parseLong(NO_PROCESS);
            }
        }
        return Long.parseLong(text);
    }
}
