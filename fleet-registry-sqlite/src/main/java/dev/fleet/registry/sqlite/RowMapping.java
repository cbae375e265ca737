package dev.fleet.registry.sqlite;

import dev.fleet.domain.RegistryRow;
import dev.fleet.registry.sqlite.jooq.tables.records.McpServerRuntimesRecord;

/** Column values to and from the domain's row, as-is: interpretation is the domain's job. */
final class RowMapping {

    private RowMapping() {
    }

    static RegistryRow toRow(McpServerRuntimesRecord record) {
        return toRow(record, record.getPid());
    }

    /**
     * The row as read, with the pid only when SQLite holds it as a whole number: jOOQ would read a
     * REAL {@code 12.7} another tool wrote as pid 12, a live-looking pid the row never named.
     *
     * @param pidAsText the pid column cast to text, as SQLite stores it
     */
    static RegistryRow toRow(McpServerRuntimesRecord record, String pidAsText) {
        Long pid = pidAsText != null && pidAsText.matches("-?\\d{1,18}") ? record.getPid() : null;
        return toRow(record, pid);
    }

    private static RegistryRow toRow(McpServerRuntimesRecord record, Long pid) {
        return new RegistryRow(
                record.getRuntimeId(),
                record.getNamespace(),
                record.getProfile(),
                record.getRole(),
                record.getRemote(),
                record.getOrg(),
                record.getRepo(),
                record.getRepositoryRoot(),
                pid,
                record.getCohortId(),
                record.getCohortSource(),
                record.getClientProvenance(),
                record.getBootId(),
                record.getProcessStartedAt(),
                record.getStartupHead(),
                record.getTransport(),
                record.getStatus(),
                record.getRegisteredAt(),
                record.getLastHeartbeatAt(),
                record.getStoppedAt());
    }

    static McpServerRuntimesRecord toRecord(RegistryRow row) {
        return new McpServerRuntimesRecord()
                .setRuntimeId(row.runtimeId())
                .setNamespace(row.namespace())
                .setProfile(row.profile())
                .setRole(row.role())
                .setRemote(row.remote())
                .setOrg(row.org())
                .setRepo(row.repo())
                .setRepositoryRoot(row.repositoryRoot())
                .setPid(row.pid())
                .setCohortId(row.cohortId())
                .setCohortSource(row.cohortSource())
                .setClientProvenance(row.clientProvenance())
                .setBootId(row.bootId())
                .setProcessStartedAt(row.processStartedAt())
                .setStartupHead(row.startupHead())
                .setTransport(row.transport())
                .setStatus(row.status())
                .setRegisteredAt(row.registeredAt())
                .setLastHeartbeatAt(row.lastHeartbeatAt())
                .setStoppedAt(row.stoppedAt());
    }
}
