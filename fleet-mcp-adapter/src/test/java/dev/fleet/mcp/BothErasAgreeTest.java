package dev.fleet.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.domain.Snapshot;
import dev.fleet.domain.lifecycle.FixedClock;
import dev.fleet.domain.lifecycle.InMemoryRegistry;
import dev.fleet.domain.registration.ServerLifecycleService;
import dev.fleet.domain.verdict.FleetClassifier;
import dev.fleet.domain.verdict.FleetGen;
import dev.fleet.domain.verdict.VerdictDocument;
import dev.fleet.mcp.http.RunningHttpServer;
import dev.fleet.mcp.http.StreamableHttpEndpoint;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Agreement across eras (§13): for random registry snapshots (the domain's {@link FleetGen}, the
 * domain's ports faked by a fixed snapshot), one {@code fleet serve} over streamable HTTP answers its
 * tool and {@code fleet://verdict} with the same bytes and {@code verdict_digest} to a 2025 client (the
 * SDK's session client) and to a 2026-07-28 client (the SDK 2.2.0's modern client), and those bytes
 * are the domain's canonical verdict.
 */
class BothErasAgreeTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final AtomicReference<Snapshot> fleetNow = new AtomicReference<>();
    private final ServerLifecycleService lifecycle = Fixtures.lifecycle(Fixtures.httpIdentity(), new InMemoryRegistry(),
            new FixedClock(Instant.parse("2026-07-28T02:00:00Z")));
    private final FleetMcpServer fleet = new FleetMcpServer(() -> FleetClassifier.classify(fleetNow.get()), lifecycle,
            lifecycle, Duration.ofHours(1));

    @Test
    void bothErasAnswerTheSameVerdictBytesAndDigest() {
        try (RunningHttpServer running = StreamableHttpEndpoint.start(fleet, StreamableHttpEndpoint.DEFAULT_HOST, 0);
                McpSyncClient legacy = Fixtures.httpClient(running, client -> client)) {
            legacy.initialize();
            io.modelcontextprotocol.modern.client.McpSyncClient modern = ModernClients.of(running);
            qt().withExamples(60).forAll(FleetGen.fleets()).checkAssert(snapshot -> {
                fleetNow.set(snapshot);
                String expected = VerdictDocument.canonicalJson(FleetClassifier.classify(snapshot));

                String legacyTool = ((McpSchema.TextContent) legacy.callTool(new McpSchema.CallToolRequest(
                        AssessFleetInventoryTool.NAME, Map.of())).content().get(0)).text();
                String modernTool = ModernClients.assessment(modern);
                String legacyRead = ((McpSchema.TextResourceContents) legacy.readResource(
                        new McpSchema.ReadResourceRequest(VerdictResource.URI)).contents().get(0)).text();
                String modernRead = ModernClients.verdict(modern);

                assertEquals(expected, legacyTool, "2025 tool");
                assertEquals(expected, modernTool, "2026-07-28 tool");
                assertEquals(expected, legacyRead, "2025 resource");
                assertEquals(expected, modernRead, "2026-07-28 resource");
                assertEquals(digest(legacyTool), digest(modernTool));
                assertEquals(FleetClassifier.classify(snapshot).verdictDigest(), digest(modernTool));
            });
        }
    }

    private static String digest(String verdict) {
        try {
            return JSON.readTree(verdict).path("verdict_digest").asText();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
