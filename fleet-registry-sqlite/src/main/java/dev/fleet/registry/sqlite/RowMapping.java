package dev.fleet.registry.sqlite;

import dev.fleet.domain.RegistryRow;
import dev.fleet.registry.sqlite.jooq.tables.records.McpServerRuntimesRecord;

/** Column values to and from the domain's row, as-is: interpretation is the domain's job. */
final class RowMapping {

    private RowMapping() {
    }

    static RegistryRow toRow(McpServerRuntimesRecord record) {
        return new RegistryRow(
                record.getRuntimeId(),
                record.getNamespace(),
                record.getProfile(),
                record.getRole(),
                record.getRemote(),
                record.getOrg(),
                record.getRepo(),
                record.getRepositoryRoot(),
                record.getPid(),
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
