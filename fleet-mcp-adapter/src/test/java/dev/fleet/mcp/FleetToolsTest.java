package dev.fleet.mcp;

import dev.fleet.domain.port.in.AssessFleetInventoryUseCase;
import dev.fleet.domain.lifecycle.FixedClock;
import dev.fleet.domain.lifecycle.InMemoryRegistry;
import dev.fleet.domain.registration.ServerLifecycleService;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.AnsweredBy;
import dev.fleet.domain.Snapshot;
import dev.fleet.domain.verdict.encoding.CanonicalJson;
import dev.fleet.domain.verdict.FleetClassifier;
import dev.fleet.domain.verdict.VerdictDocument;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The tool handlers in process, and their output schemas against every shape the documents take. */
class FleetToolsTest {

    private static final AnsweredBy ANSWERED_BY = new AnsweredBy(4_321, "gitea-controller", "prgs-controller");
    private static final CallToolRequest NO_ARGUMENTS = call(AssessFleetInventoryTool.NAME, Map.of());

    private final DefaultJsonSchemaValidator validator = new DefaultJsonSchemaValidator();

    @Test
    void theVerdictSchemaIsValidAndAcceptsEveryVerdictShape() {
        Map<String, Object> schema = AssessFleetInventoryTool.DEFINITION.tool().outputSchema();
        assertTrue(validator.validateSchema(schema).valid(), () -> validator.validateSchema(schema).errorMessage());

        List<Function<AnsweredBy, Snapshot>> scenarios = List.of(Fixtures::satisfied, Fixtures::duplicateAuthor,
                Fixtures::everyAnomaly, Fixtures::unreadable);
        for (Function<AnsweredBy, Snapshot> scenario : scenarios) {
            for (AnsweredBy answeredBy : new AnsweredBy[] {ANSWERED_BY, null}) {
                Map<String, Object> tree = VerdictDocument.toTree(FleetClassifier.classify(scenario.apply(answeredBy)));
                JsonSchemaValidator.ValidationResponse response = validator.validate(schema, tree);
                assertTrue(response.valid(), response::errorMessage);
            }
        }
    }

    @Test
    void theEveryAnomalyFixtureReallyFillsEveryList() {
        Map<String, Object> tree = VerdictDocument.toTree(FleetClassifier.classify(Fixtures.everyAnomaly(null)));
        for (String list : List.of("blocked_reasons", "members", "duplicate_members", "unexpected_members",
                "stale_registrations", "unverified_registrations", "malformed_registrations", "orphaned_instances",
                "unregistered_processes")) {
            assertFalse(((List<?>) tree.get(list)).isEmpty(), list);
        }
    }

    @Test
    void assessReturnsTheVerdictAsStructuredContentAndTheSameCanonicalJsonAsText() {
        Snapshot snapshot = Fixtures.duplicateAuthor(ANSWERED_BY);
        CallToolResult result = assessTool(Fixtures.assessment(snapshot)).call(NO_ARGUMENTS);

        Map<String, Object> expected = VerdictDocument.toTree(FleetClassifier.classify(snapshot));
        assertEquals(Boolean.FALSE, result.isError());
        assertEquals(expected, result.structuredContent());
        assertEquals(List.of(McpSchema.TextContent.builder(CanonicalJson.encode(expected)).build()), result.content());
    }

    @Test
    void anyArgumentIsRefusedWithoutAssessing() {
        ReadOnlyDocumentTool tool = assessTool(() -> {
            throw new AssertionError("evidence must not reach the use case");
        });

        CallToolResult result = tool.call(call(AssessFleetInventoryTool.NAME,
                Map.of("process", Map.of("pid", 1, "healthy", true))));

        assertEquals(Boolean.TRUE, result.isError());
        assertNull(result.structuredContent());
        String text = ((McpSchema.TextContent) result.content().get(0)).text();
        assertTrue(text.contains("accepts no evidence"), text);
        assertTrue(text.contains("observes the fleet itself"), text);
    }

    @Test
    void argumentsThatAreNotAnObjectReachTheToolWrappedAndAreRefused() {
        ReadOnlyDocumentTool tool = assessTool(() -> {
            throw new AssertionError("evidence must not reach the use case");
        });
        io.modelcontextprotocol.json.McpJsonMapper mapper = McpJson.mapper();
        for (Object arguments : List.of(List.of(), List.of(1, 2), "x", "", 5, 0, true, false)) {
            Map<String, Object> params = new java.util.HashMap<>();
            params.put("name", AssessFleetInventoryTool.NAME);
            params.put("arguments", arguments);

            CallToolRequest request = mapper.convertValue(params, CallToolRequest.class);

            assertEquals(Map.of(McpJson.NON_OBJECT_ARGUMENTS, arguments), request.arguments(), arguments::toString);
            CallToolResult result = tool.call(request);
            assertEquals(Boolean.TRUE, result.isError(), arguments::toString);
            assertTrue(((McpSchema.TextContent) result.content().get(0)).text().contains("accepts no evidence"));
        }
    }

    @Test
    void nullOrObjectArgumentsAreReadAsTheyAre() {
        io.modelcontextprotocol.json.McpJsonMapper mapper = McpJson.mapper();
        Map<String, Object> params = new java.util.HashMap<>();
        params.put("name", AssessFleetInventoryTool.NAME);
        params.put("arguments", null);
        assertNull(mapper.convertValue(params, CallToolRequest.class).arguments());
        params.put("arguments", Map.of("a", List.of(1)));
        assertEquals(Map.of("a", List.of(1)), mapper.convertValue(params, CallToolRequest.class).arguments());
        params.remove("arguments");
        assertNull(mapper.convertValue(params, CallToolRequest.class).arguments());
    }

    @Test
    void eachAnswerWaitsForWhatTheServerAwaitsFirst() {
        List<String> order = new java.util.ArrayList<>();
        ReadOnlyDocumentTool tool = AssessFleetInventoryTool.of(() -> {
            order.add("assess");
            return FleetClassifier.classify(Fixtures.satisfied(ANSWERED_BY));
        }, () -> order.add("await own registration"));

        tool.call(NO_ARGUMENTS);
        tool.call(call(AssessFleetInventoryTool.NAME, Map.of("x", 1)));

        assertEquals(List.of("await own registration", "assess"), order, "a refused call assesses nothing");
    }

    @Test
    void anUnexpectedFailureBecomesAnErrorResult() {
        ReadOnlyDocumentTool tool = assessTool(() -> {
            throw new IllegalStateException("observer exploded");
        });

        CallToolResult result = tool.call(NO_ARGUMENTS);

        assertEquals(Boolean.TRUE, result.isError());
        String text = ((McpSchema.TextContent) result.content().get(0)).text();
        assertTrue(text.contains("observer exploded"), text);
        assertTrue(text.contains("not satisfied"), text);
    }

    @Test
    void runtimeContextReportsIdentityAndRegistrationInEveryStateWithinItsSchema() {
        Map<String, Object> schema = RuntimeContextTool.DEFINITION.tool().outputSchema();
        assertTrue(validator.validateSchema(schema).valid());
        InMemoryRegistry registry = new InMemoryRegistry();
        AtomicReference<Runnable> heartbeat = new AtomicReference<>();
        ServerLifecycleService lifecycle = Fixtures.lifecycle(Fixtures.identity(4_321), registry,
                new FixedClock(Fixtures.REGISTERED), (tick, period, retry) -> {
                    heartbeat.set(tick::getAsBoolean);
                    return () -> { };
                });
        ReadOnlyDocumentTool tool = RuntimeContextTool.of(lifecycle, Duration.ZERO);

        Map<?, ?> pending = (Map<?, ?>) tool.call(NO_ARGUMENTS).structuredContent();
        Map<?, ?> pendingRegistration = (Map<?, ?>) pending.get("registration");
        assertEquals("pending", pendingRegistration.get("status"));
        assertEquals(List.of("status", "error", "registered_at", "last_heartbeat_at"),
                List.copyOf(pendingRegistration.keySet()));
        assertNull(pendingRegistration.get("registered_at"));
        assertNull(pending.get("runtime_id"));

        registry.failRegistrationsWith(new IllegalStateException("disk full"));
        lifecycle.start(Duration.ofHours(1));
        CallToolResult failed = tool.call(NO_ARGUMENTS);
        Map<?, ?> failedRegistration = (Map<?, ?>) ((Map<?, ?>) failed.structuredContent()).get("registration");
        assertEquals("failed", failedRegistration.get("status"));
        assertEquals("disk full", failedRegistration.get("error"));

        registry.failRegistrationsWith(null);
        heartbeat.get().run(); // a failed registration is retried at the next tick
        CallToolResult registered = tool.call(NO_ARGUMENTS);
        Map<?, ?> context = (Map<?, ?>) registered.structuredContent();
        assertEquals(4_321L, context.get("pid"));
        assertEquals("prgs-controller", context.get("profile"));
        assertEquals("gitea-controller", context.get("namespace"));
        assertEquals("controller", context.get("role"));
        assertEquals("stdio", context.get("transport"));
        assertEquals(Fixtures.COHORT, context.get("cohort_id"));
        assertEquals("env", context.get("cohort_source"));
        assertEquals(Fixtures.HEAD, context.get("startup_head"));
        assertEquals(registry.rows().get(0).runtimeId(), context.get("runtime_id"));
        Map<?, ?> registration = (Map<?, ?>) context.get("registration");
        assertEquals("registered", registration.get("status"));
        assertNull(registration.get("error"));
        assertEquals("2026-07-28T02:00:00.250Z", registration.get("registered_at"));
        assertEquals(CanonicalJson.encode(context), ((McpSchema.TextContent) registered.content().get(0)).text());

        for (Object tree : List.of(pending, failed.structuredContent(), context)) {
            assertTrue(validator.validate(schema, tree).valid(), () -> validator.validate(schema, tree).errorMessage());
        }
        assertEquals(Boolean.TRUE, tool.call(call(RuntimeContextTool.NAME, Map.of("x", 1))).isError());
    }

    @Test
    void bothToolsTakeNoArgumentsAndAreReadOnly() {
        for (McpSchema.Tool tool : List.of(AssessFleetInventoryTool.DEFINITION.tool(), RuntimeContextTool.DEFINITION.tool())) {
            assertEquals(Map.of("type", "object", "properties", Map.of(), "additionalProperties", false),
                    tool.inputSchema(), tool.name());
            assertEquals(new McpSchema.ToolAnnotations(tool.annotations().title(), true, false, true, false, null),
                    tool.annotations(), tool.name());
        }
    }

    private static CallToolRequest call(String tool, Map<String, Object> arguments) {
        return CallToolRequest.builder(tool).arguments(arguments).build();
    }

    /** The assessment tool over {@code useCase}, with no registration of its own to wait for. */
    private static ReadOnlyDocumentTool assessTool(AssessFleetInventoryUseCase useCase) {
        return AssessFleetInventoryTool.of(useCase, () -> { });
    }
}
