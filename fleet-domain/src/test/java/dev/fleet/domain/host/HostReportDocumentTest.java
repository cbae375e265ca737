package dev.fleet.domain.host;

import static dev.fleet.domain.host.HostFixture.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.verdict.OutsideText;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The report's JSON: exactly §14's fields, in its order, starts to the second in UTC, outside text capped. */
class HostReportDocumentTest {

    @Test
    void theJsonHasExactlyTheContractsFields() {
        HostFixture host = new HostFixture().withInit()
                .configure(entry(ClientKind.CODEX, "git", "uvx", "mcp-git"))
                .client(1000, 1, 1000, Set.of(11L, 12L), "codex")
                .process(1500, 1000, 3_000, 11, "uvx", "mcp-git")
                .process(2000, 1000, 5_000, 12, "uvx", "mcp-git");
        host.warnings.add("~/.gemini/settings.json: not JSON");

        String json = HostReportDocument.canonicalJson(host.report());

        String stop = StopLine.of(HostFixture.BOOT_ID, List.of(new StopTarget(1500, 3000))).replace("\"", "\\\"");
        assertEquals("{\"clients\":[{\"kind\":\"codex\",\"pid\":1000,\"started_at\":\"2026-12-01T08:00:10Z\","
                + "\"command\":\"codex\",\"project\":null}],\"servers\":["
                + "{\"client_kind\":\"codex\",\"client_pid\":1000,\"config_file\":\"/home/u/.codex.json\",\"name\":\"git\","
                + "\"state\":\"stale_generation\",\"pids\":[1500],\"root_pid\":1500,\"started_ticks\":3000,"
                + "\"started_at\":\"2026-12-01T08:00:30Z\",\"memory_bytes\":1024,\"stop\":\"" + stop + "\"},"
                + "{\"client_kind\":\"codex\",\"client_pid\":1000,\"config_file\":\"/home/u/.codex.json\",\"name\":\"git\","
                + "\"state\":\"current\",\"pids\":[2000],\"root_pid\":2000,\"started_ticks\":5000,"
                + "\"started_at\":\"2026-12-01T08:00:50Z\",\"memory_bytes\":1024,\"stop\":null}],"
                + "\"strays\":1,\"warnings\":[\"~/.gemini/settings.json: not JSON\"]}", json);
    }

    @Test
    void aHugeCommandIsCappedAsTheVerdictCapsIt() {
        String huge = "x".repeat(OutsideText.MAX_CHARS + 10);
        HostReport report = new HostReport(List.of(new HostClient(null, 7, 1, null, huge, null)), List.of(), 0, List.of());

        assertTrue(HostReportDocument.canonicalJson(report).contains("…[truncated, " + (OutsideText.MAX_CHARS + 10)
                + " chars]"));
    }

    @Test
    void theOrderIsClientsByKindThenServersByClientEntryAndStart() {
        HostFixture host = new HostFixture().withInit()
                .configure(entry(ClientKind.CLAUDE_CODE, "b", "srv-b"))
                .configure(entry(ClientKind.CLAUDE_CODE, "a", "srv-a"))
                .configure(entry(ClientKind.CURSOR, "a", "srv-a"))
                .client(3000, 1, 300, Set.of(), "my-agent")
                .client(2000, 1, 200, Set.of(), "cursor")
                .client(1000, 1, 100, Set.of(), "claude")
                .process(1100, 1000, 500, 0, "srv-b")
                .process(1101, 1000, 501, 0, "srv-a")
                .process(2100, 2000, 500, 0, "srv-a")
                .process(3100, 3000, 500, 0, "srv-a")
                .process(4100, 1, 500, 0, "srv-b");

        HostReport report = host.report();

        assertEquals(List.of(1000L, 2000L, 3000L), report.clients().stream().map(HostClient::pid).toList());
        assertEquals(List.of(1101L, 1100L, 2100L, 3100L, 4100L),
                report.servers().stream().map(HostServer::rootPid).toList());
    }
}
