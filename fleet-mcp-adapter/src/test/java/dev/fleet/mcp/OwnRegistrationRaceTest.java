package dev.fleet.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract: "a tool call that arrives before this server's own registration attempt has finished
 * waits for it (at most 5 s), so a server never reports itself as a stray". A real stdio server
 * whose registration takes 3 s (a first migration on a busy disk) is asked at once, right after
 * {@code initialize}; its assessment observes the server itself, so answering early would list its
 * own pid as an unregistered process.
 */
class OwnRegistrationRaceTest {

    private static final String SLOW_REGISTRATION = "--registration-delay-millis=3000";

    @TempDir
    Path temp;

    @Test
    void anAssessmentAskedRightAfterInitializeWaitsForThisServersOwnRegistration() throws Exception {
        try (RawStdioServer server = new RawStdioServer(temp, SLOW_REGISTRATION, "--self-assessment")) {
            server.initialize();
            JsonNode verdict = server.callTool(2, "gitea_assess_fleet_inventory").path("result");

            assertFalse(verdict.path("isError").asBoolean(true), verdict::toString);
            JsonNode structured = verdict.path("structuredContent");
            List<Long> unregistered = StreamSupport.stream(structured.path("unregistered_processes").spliterator(), false)
                    .map(process -> process.path("pid").asLong()).toList();
            assertFalse(unregistered.contains(server.pid()),
                    () -> "the server listed itself as a stray: " + structured.path("unregistered_processes"));
            JsonNode controller = StreamSupport.stream(structured.path("members").spliterator(), false)
                    .filter(member -> member.path("profile").asText().equals("prgs-controller"))
                    .findFirst().orElseThrow();
            assertEquals("running", controller.path("state").asText(), controller::toString);
            assertEquals(server.pid(), controller.path("instances").path(0).path("pid").asLong());
        }
    }

    @Test
    void theRuntimeContextAskedRightAfterInitializeReportsTheRegistrationNotPending() throws Exception {
        try (RawStdioServer server = new RawStdioServer(temp, SLOW_REGISTRATION)) {
            server.initialize();
            JsonNode context = server.callTool(2, "gitea_get_runtime_context").path("result").path("structuredContent");

            assertEquals("registered", context.path("registration").path("status").asText(), context::toString);
            assertTrue(server.calls().get(0).startsWith("register " + context.path("runtime_id").asText()),
                    server.calls()::toString);
        }
    }
}
