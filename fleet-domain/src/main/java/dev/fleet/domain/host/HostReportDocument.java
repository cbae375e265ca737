package dev.fleet.domain.host;

import dev.fleet.domain.verdict.OutsideText;
import dev.fleet.domain.verdict.encoding.CanonicalJson;
import dev.fleet.domain.verdict.encoding.Json;
import dev.fleet.domain.verdict.encoding.Json.Members;
import java.util.Map;

/**
 * The host report as a document (the contract, §14, "JSON"): one tree, field by field in the contract's
 * order, the one place its fields are named. Its JSON is the tree's canonical encoding ({@link
 * CanonicalJson}, as the verdict's is), so the same report gives the same bytes. Every string taken from
 * outside the program (a command, a path, a server's name, a warning) is capped as the verdict caps it
 * ({@link OutsideText}): a process with a megabyte of argv must not make the report unreadable.
 */
public final class HostReportDocument {

    private HostReportDocument() {
    }

    /** The document as plain ordered maps, lists, strings, integers and nulls. */
    public static Map<String, Object> toTree(HostReport report) {
        return tree(report).plain();
    }

    /** The document's canonical JSON. */
    public static String canonicalJson(HostReport report) {
        return CanonicalJson.encode(tree(report));
    }

    static Json.Obj tree(HostReport report) {
        return new Members()
                .put("clients", Json.array(report.clients(), HostReportDocument::client))
                .put("servers", Json.array(report.servers(), HostReportDocument::server))
                .put("strays", report.strays())
                .put("warnings", Json.array(report.warnings(), warning -> Json.of(OutsideText.cap(warning))))
                .build();
    }

    private static Json client(HostClient client) {
        return new Members()
                .put("kind", client.kind())
                .put("pid", client.pid())
                .put("started_at", client.startedAt())
                .put("command", OutsideText.cap(client.command()))
                .put("project", OutsideText.cap(client.project()))
                .build();
    }

    private static Json server(HostServer server) {
        return new Members()
                .put("client_kind", server.clientKind())
                .put("client_pid", server.clientPid() == null ? Json.NULL : Json.of(server.clientPid().longValue()))
                .put("config_file", OutsideText.cap(server.configFile()))
                .put("name", OutsideText.cap(server.name()))
                .put("state", server.state().label())
                .put("pids", Json.array(server.pids(), pid -> Json.of(pid.longValue())))
                .put("root_pid", server.rootPid())
                .put("started_ticks", server.startedTicks())
                .put("started_at", server.startedAt())
                .put("memory_bytes", server.memoryBytes())
                .put("stop", server.stop())
                .build();
    }
}
