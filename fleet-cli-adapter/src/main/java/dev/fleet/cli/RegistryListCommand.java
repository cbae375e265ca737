package dev.fleet.cli;

import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.verdict.CanonicalJson;
import dev.fleet.registry.sqlite.SqliteRegistryReader;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Lists rows through the read-only side: listing never creates, migrates or writes the file. */
@Command(name = "list",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:listed", "1:the registry is unreadable (the reason on stderr)", ExitCodes.USAGE_LINE, ExitCodes.INTERNAL_LINE},
        description = "List registrations, oldest first (read-only).")
final class RegistryListCommand extends FormattedVerb implements Callable<Integer> {

    @Mixin
    private RegistryOption registry;

    @Option(names = "--status", paramLabel = "running|stopped",
            description = "Only rows with this status (default: every row).")
    private RegistrationStatus status;

    @Override
    public Integer call() {
        SqliteRegistryReader reader = new SqliteRegistryReader(registry.path());
        RegistryRead read = status == null ? reader.readAll() : reader.read(status);
        if (!read.readable()) {
            err().printf("fleet: registry %s unreadable: %s%s%n", reader.location(),
                    read.reason().code(), read.detail() == null ? "" : " (" + read.detail() + ")");
            return ExitCodes.NEGATIVE;
        }
        print(() -> CanonicalJson.encode(read.rows().stream().<Object>map(RegistryListCommand::document).toList()),
                () -> text(read, reader.location()));
        return ExitCodes.OK;
    }

    private static String text(RegistryRead read, String location) {
        Table table = new Table("RUNTIME_ID", "NAMESPACE", "PROFILE", "PID", "STATUS", "COHORT", "TRANSPORT",
                "REGISTERED_AT", "LAST_HEARTBEAT_AT", "STOPPED_AT");
        for (RegistryRow row : read.rows()) {
            table.row(row.runtimeId(), row.namespace(), row.profile(), row.pid(), row.status(), row.cohortId(),
                    row.transport(), row.registeredAt(), row.lastHeartbeatAt(), row.stoppedAt());
        }
        return table.render() + String.format("%s in %s%n", VerdictText.count(read.rows().size(), "row", "rows"),
                location);
    }

    /** A row under the contract's column names, values exactly as stored. */
    static Map<String, Object> document(RegistryRow row) {
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("runtime_id", row.runtimeId());
        tree.put("namespace", row.namespace());
        tree.put("profile", row.profile());
        tree.put("role", row.role());
        tree.put("remote", row.remote());
        tree.put("org", row.org());
        tree.put("repo", row.repo());
        tree.put("repository_root", row.repositoryRoot());
        tree.put("pid", row.pid());
        tree.put("cohort_id", row.cohortId());
        tree.put("cohort_source", row.cohortSource());
        tree.put("client_provenance", row.clientProvenance());
        tree.put("boot_id", row.bootId());
        tree.put("process_started_at", row.processStartedAt());
        tree.put("startup_head", row.startupHead());
        tree.put("transport", row.transport());
        tree.put("status", row.status());
        tree.put("registered_at", row.registeredAt());
        tree.put("last_heartbeat_at", row.lastHeartbeatAt());
        tree.put("stopped_at", row.stoppedAt());
        return tree;
    }
}
