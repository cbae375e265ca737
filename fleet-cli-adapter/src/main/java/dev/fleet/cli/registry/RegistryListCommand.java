package dev.fleet.cli.registry;

import dev.fleet.cli.exit.ExitCodes;
import dev.fleet.cli.option.Candidates;
import dev.fleet.cli.option.FormatOption;
import dev.fleet.cli.option.LeaseOption;
import dev.fleet.cli.option.RegistryOption;
import dev.fleet.domain.Printable;
import dev.fleet.cli.text.Table;
import dev.fleet.cli.text.VerdictText;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.port.out.RegistryListing;
import dev.fleet.domain.verdict.encoding.CanonicalJson;
import dev.fleet.observer.HostIdentity;
import dev.fleet.observer.ProcessObservers;
import dev.fleet.registry.schema.RegistryColumn;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Lists rows through the read-only side of either engine: listing never creates, migrates or writes. The
 * text also says whether each running row is alive now ({@link RowLiveness}: a pid of this host, as the
 * process observer sees it, read-only too; a row of another host by its lease); the JSON gives the rows
 * exactly as stored.
 */
@Command(name = "list",
        description = {"List registrations, oldest first (read-only).",
            "The text fits 100 columns: a short runtime id, the main columns, long values cut with …; "
                    + "ALIVE says whether a running row's server is alive now: for a row of this host, whether its "
                    + "pid is; for a row of another host (its host_id differs), whether its lease holds."})
final class RegistryListCommand implements Callable<Integer> {

    /** Columns of the default text and their widths: 98 columns with the separators. */
    private static final String[] HEADERS = {"RUNTIME_ID", "NAMESPACE", "PROFILE", "PID", "ALIVE", "STATUS",
        "LAST_HEARTBEAT_AT"};
    private static final int[] WIDTHS = {10, 16, 16, 8, 5, 7, 24};

    @Spec
    private CommandSpec spec;

    @Mixin
    private FormatOption format;

    @Mixin
    private RegistryOption registry;

    @Option(names = "--status", paramLabel = "running|stopped", completionCandidates = Candidates.Statuses.class,
            description = "Only rows with this status (default: every row).")
    private RegistrationStatus status;

    @Option(names = "--wide", description = "Text with every column, whole, however wide (HOST_ID too).")
    private boolean wide;

    @Mixin
    private LeaseOption lease;

    @Override
    public Integer call() {
        RegistryListing reader = registry.listing();
        RegistryRead read = status == null ? reader.readAll() : reader.read(status);
        if (read instanceof RegistryRead.Unreadable unreadable) {
            // A database's reason says what to do about the database (a role, a server); a file's speaks for itself.
            spec.commandLine().getErr().printf("fleet: registry %s%s unreadable: %s%s%s%n",
                    Printable.of(reader.location()), registry.origin(), unreadable.reason().code(),
                    unreadable.detail() == null ? "" : " (" + Printable.of(unreadable.detail()) + ")",
                    unreadable.reason().hasOwnAction() ? ". " + unreadable.reason().action() : "");
            return ExitCodes.NEGATIVE;
        }
        format.print(() -> CanonicalJson.encode(document(reader.location(), read.rows())),
                () -> text(read, reader.location()));
        return ExitCodes.OK;
    }

    /** The one JSON object: the registry read, and its rows. */
    static Map<String, Object> document(String location, List<RegistryRow> rows) {
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("registry", location);
        tree.put("rows", rows.stream().<Object>map(RegistryListCommand::row).toList());
        return tree;
    }

    private String text(RegistryRead read, String location) {
        RowLiveness alive = RowLiveness.of(read, HostIdentity.ofThisHost(), lease.lease(),
                Instant.now(), ProcessObservers.forThisPlatform());
        Table table;
        if (wide) {
            table = new Table("RUNTIME_ID", "NAMESPACE", "PROFILE", "PID", "HOST_ID", "ALIVE", "STATUS", "COHORT",
                    "TRANSPORT", "ENDPOINT", "REGISTERED_AT", "LAST_HEARTBEAT_AT", "STOPPED_AT");
            for (RegistryRow row : read.rows()) {
                table.row(row.runtimeId(), row.namespace(), row.profile(), row.pid(), row.hostId(), alive.of(row),
                        row.status(), row.cohortId(), row.transport(), row.endpoint(), row.registeredAt(),
                        row.lastHeartbeatAt(), row.stoppedAt());
            }
        } else {
            table = new Table(HEADERS).limit(WIDTHS);
            for (RegistryRow row : read.rows()) {
                table.row(row.runtimeId(), row.namespace(), row.profile(), row.pid(), alive.of(row), row.status(),
                        row.lastHeartbeatAt());
            }
        }
        return table.render() + String.format("%s in %s%n", VerdictText.count(read.rows().size(), "row", "rows"),
                Printable.of(location));
    }

    /** A row under the contract's column names, values exactly as stored. */
    static Map<String, Object> row(RegistryRow row) {
        Map<String, Object> tree = new LinkedHashMap<>();
        for (RegistryColumn column : RegistryColumn.LISTED) {
            tree.put(column.sqlName(), column.valueOf(row));
        }
        return tree;
    }
}
