package dev.fleet.cli.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.cli.testing.HostShape;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator.ValidationResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/host.schema.json is what {@link HostSchema} renders now (the build writes it after the tests, as
 * it writes docs/CLI.md), and the schema says what the contract says: a report of the contract's shape
 * passes; a wrong state, a missing field, a stray without its stop line and a current server with one fail.
 */
class HostSchemaTest {

    private static final Path COMMITTED = Path.of("..", "docs", "host.schema.json");

    /** A report as the contract writes one: a client, its current server and a stale generation. */
    private static final String REPORT = """
            {"clients": [{"kind": "claude-code", "pid": 100, "started_at": "2026-12-05T09:00:00Z",
              "command": "claude", "project": "/home/u/p"}],
             "servers": [
              {"client_kind": "claude-code", "client_pid": 100, "config_file": "/home/u/.claude.json",
               "name": "github", "state": "current", "pids": [301, 302], "root_pid": 301, "started_ticks": 900,
               "started_at": "2026-12-05T09:00:10Z", "memory_bytes": 4096, "stop": null},
              {"client_kind": "claude-code", "client_pid": 100, "config_file": "/home/u/.claude.json",
               "name": "github", "state": "stale_generation", "pids": [290], "root_pid": 290,
               "started_ticks": 800, "started_at": "2026-12-05T09:00:09Z", "memory_bytes": 0,
               "stop": "kill -TERM 290"}],
             "strays": 1, "warnings": ["/home/u/.codex/config.toml: not TOML"]}
            """;

    @Test
    void theCommittedSchemaIsWhatTheCodeRendersNow() throws Exception {
        assertEquals(HostSchema.text(), Files.readString(COMMITTED, StandardCharsets.UTF_8),
                "docs/host.schema.json is stale; `./mvnw -B -pl fleet-cli-adapter -am package -DskipTests` writes "
                        + "it anew, to be committed");
        assertEquals(HostSchema.text(), HostSchema.text(), "the same bytes on every rendering");
    }

    @Test
    void aReportOfTheContractsShapePasses() {
        ValidationResponse valid = HostShape.validate(HostSchema.text(), REPORT);
        assertTrue(valid.valid(), valid::errorMessage);
    }

    @Test
    void whatTheContractForbidsFails() {
        String schema = HostSchema.text();
        assertFalse(HostShape.validate(schema, REPORT.replace("\"current\"", "\"asleep\"")).valid(), "states are an enum");
        assertFalse(HostShape.validate(schema, REPORT.replace("\"strays\": 1, ", "")).valid(), "strays is required");
        assertFalse(HostShape.validate(schema, REPORT.replace("\"kill -TERM 290\"", "null")).valid(),
                "a stray carries its stop line");
        assertFalse(HostShape.validate(schema, REPORT.replace("\"stop\": null", "\"stop\": \"kill 301\"")).valid(),
                "a current server has none");
        assertFalse(HostShape.validate(schema, REPORT.replace("\"pid\": 100", "\"pid\": \"100\"")).valid(),
                "a client's pid is a number, behind its $ref");
        assertFalse(HostShape.validate(schema, REPORT.replace("\"claude-code\", \"pid\"", "\"code-claude\", \"pid\""))
                .valid(), "client kinds are an enum");
    }
}
