package dev.fleet.mcp;

import dev.fleet.testing.Patience;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.verdict.FleetClassifier;
import dev.fleet.domain.verdict.VerdictDocument;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator.ValidationResponse;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a model is handed: the tool definitions as a real MCP client (the SDK's, over stdio, against a
 * real server process) lists them, their size, their descriptions, and the structured content of a
 * real call checked against the output schema with every {@code $ref} resolved.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ToolSurfaceTest {

    /**
     * The contract: the compact {@code tools/list} entry of the assessment tool, descriptions included, at
     * most 6.5 KB since instances show the server a member wraps.
     */
    static final int MAX_ENTRY_BYTES = 6656;

    private McpSyncClient client;

    @BeforeAll
    void startServer(@TempDir Path temp) {
        StdioClientTransport transport = new StdioClientTransport(ServerParameters.builder(Subprocess.java())
                .args(Subprocess.serverArguments(temp.resolve("calls.txt"))).build(), McpJson.mapper());
        transport.setStdErrorHandler(line -> { });
        client = McpClient.sync(transport).requestTimeout(Patience.mcpTimeout())
                .initializationTimeout(Patience.mcpTimeout()).build();
        client.initialize();
    }

    @AfterAll
    void stop() {
        if (client != null) {
            client.closeGracefully();
        }
    }

    @Test
    void theAssessmentToolsCompactEntryFitsInSixAndAHalfKilobytes() throws Exception {
        McpSchema.Tool tool = listed(AssessFleetInventoryTool.NAME);
        int bytes = McpJson.mapper().writeValueAsString(tool).getBytes(StandardCharsets.UTF_8).length;
        System.out.println("compact tools/list entry of " + tool.name() + ": " + bytes + " bytes");
        assertTrue(bytes <= MAX_ENTRY_BYTES, bytes + " bytes > " + MAX_ENTRY_BYTES);
    }

    @Test
    void everyPropertyOfTheOutputSchemaHasAOneLineDescription() {
        List<String> undescribed = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        walk(listed(AssessFleetInventoryTool.NAME).outputSchema(), "#", undescribed, seen);
        assertTrue(seen.size() > 50, "walked " + seen);
        assertEquals(List.of(), undescribed);
    }

    @Test
    void bothDescriptionsSayOneCallSufficesAndWhichFieldToGateOn() {
        for (String name : List.of(AssessFleetInventoryTool.NAME, RuntimeContextTool.NAME)) {
            String description = listed(name).description();
            assertTrue(description.contains("Every member returns the same verdict and verdict_digest")
                    || description.contains("every member returns the same verdict and verdict_digest"), description);
            assertTrue(description.contains("one call from any member suffices"), description);
            assertTrue(description.contains("mutation_gate_satisfied"), description);
            assertFalse(description.contains("CONTRACT.md"), description);
        }
        assertFalse(listed(AssessFleetInventoryTool.NAME).outputSchema().toString().contains("CONTRACT.md"));
    }

    /**
     * The SDK's own validator (networknt, JSON Schema 2020-12) resolves the {@code $ref}s: a real
     * answer passes, and the same answer with a wrong type deep inside a referenced Instance fails.
     */
    @Test
    void aRealAnswerValidatesAgainstTheOutputSchemaWithItsReferencesResolved() throws Exception {
        Map<String, Object> schema = listed(AssessFleetInventoryTool.NAME).outputSchema();
        McpSchema.CallToolResult result = client.callTool(
                CallToolRequest.builder(AssessFleetInventoryTool.NAME).arguments(Map.of()).build());
        DefaultJsonSchemaValidator validator = new DefaultJsonSchemaValidator();
        @SuppressWarnings("unchecked")
        Map<String, Object> answer = (Map<String, Object>) result.structuredContent();

        ValidationResponse valid = validator.validate(schema, result.structuredContent());
        assertTrue(valid.valid(), valid::errorMessage);

        Map<String, Object> broken = deepCopy(answer);
        Map<String, Object> member = firstMemberWithAnInstance(broken);
        @SuppressWarnings("unchecked")
        Map<String, Object> instance = ((List<Map<String, Object>>) member.get("instances")).get(0);
        instance.put("pid", "not a pid");
        assertFalse(validator.validate(schema, broken).valid(), "an Instance behind a $ref must be checked");

        Map<String, Object> badCode = deepCopy(answer);
        badCode.put("blocked_reason", "no_such_code");
        assertFalse(validator.validate(schema, badCode).valid(), "codes are enums");
    }

    @Test
    void everyFieldOfEveryVerdictShapeIsInTheSchema() {
        Map<String, Object> schema = AssessFleetInventoryTool.DEFINITION.tool().outputSchema();
        Map<String, Object> tree = VerdictDocument.toTree(FleetClassifier.classify(Fixtures.everyAnomaly(null)));
        String text = schema.toString();
        List<String> missing = new ArrayList<>();
        collectKeys(tree, key -> {
            // A property of its own, or named in its parent's description (observation's fields).
            if (!text.contains(key + "={") && !text.contains(key + ",") && !text.contains(key + ";")) {
                missing.add(key);
            }
        });
        assertEquals(List.of(), missing);
    }

    /** Every anomaly at once, wrapped servers included (a served pid, a server_exited row), fits the schema. */
    @Test
    void everyAnomalyValidatesAgainstTheSchema() {
        Map<String, Object> schema = AssessFleetInventoryTool.DEFINITION.tool().outputSchema();
        Map<String, Object> tree = VerdictDocument.toTree(FleetClassifier.classify(Fixtures.everyAnomaly(null)));
        String json = tree.toString();
        assertTrue(json.contains("served_pids=[60010]") && json.contains("reason=server_exited"), json);

        ValidationResponse valid = new DefaultJsonSchemaValidator().validate(schema, tree);

        assertTrue(valid.valid(), valid::errorMessage);
    }

    @Test
    void anUnknownToolIsNamedInTheErrorMessage() {
        McpError error = assertThrows(McpError.class, () -> client.callTool(
                CallToolRequest.builder("gitea_no_such_tool").arguments(Map.of()).build()));
        assertEquals("Unknown tool: gitea_no_such_tool", error.getMessage());
        assertInstanceOf(McpError.class, error);
    }

    /**
     * Every listed input and output schema is a valid JSON Schema 2020-12: the server no longer has
     * the SDK check its own constant schemas as it starts ({@link LazySchemaValidator}), so this does.
     */
    @Test
    @SuppressWarnings("unchecked")
    void everyListedSchemaIsAValidJsonSchema() {
        DefaultJsonSchemaValidator validator = new DefaultJsonSchemaValidator();
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        List<McpSchema.Tool> tools = client.listTools().tools();
        assertEquals(2, tools.size(), tools::toString);
        for (McpSchema.Tool tool : tools) {
            for (Map<String, Object> schema : List.of(json.convertValue(tool.inputSchema(), Map.class),
                    tool.outputSchema())) {
                ValidationResponse checked = validator.validateSchema(schema);
                assertTrue(checked.valid(), () -> tool.name() + ": " + checked.errorMessage());
            }
        }
        Map<String, Object> broken = Map.of("type", "object", "properties", Map.of("n", Map.of("type", 7)));
        assertFalse(validator.validateSchema(broken).valid(), "the check can fail");
    }

    private McpSchema.Tool listed(String name) {
        return client.listTools().tools().stream().filter(tool -> tool.name().equals(name)).findFirst()
                .orElseThrow();
    }

    /** Every schema under a {@code properties} keyword must carry a non-blank, one-line description. */
    @SuppressWarnings("unchecked")
    private static void walk(Object node, String path, List<String> undescribed, List<String> seen) {
        if (node instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                String key = String.valueOf(entry.getKey());
                if (key.equals("properties") && entry.getValue() instanceof Map<?, ?> properties) {
                    for (Map.Entry<?, ?> property : properties.entrySet()) {
                        String at = path + "/" + property.getKey();
                        seen.add(at);
                        Object description = ((Map<String, Object>) property.getValue()).get("description");
                        if (!(description instanceof String text) || text.isBlank() || text.contains("\n")) {
                            undescribed.add(at);
                        }
                        walk(property.getValue(), at, undescribed, seen);
                    }
                } else {
                    walk(entry.getValue(), path + "/" + key, undescribed, seen);
                }
            }
        } else if (node instanceof List<?> list) {
            for (Object item : list) {
                walk(item, path, undescribed, seen);
            }
        }
    }

    private static void collectKeys(Object node, java.util.function.Consumer<String> keys) {
        if (node instanceof Map<?, ?> map) {
            map.forEach((key, value) -> {
                keys.accept(String.valueOf(key));
                collectKeys(value, keys);
            });
        } else if (node instanceof List<?> list) {
            list.forEach(item -> collectKeys(item, keys));
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> firstMemberWithAnInstance(Map<String, Object> verdict) {
        for (Map<String, Object> member : (List<Map<String, Object>>) verdict.get("members")) {
            if (!((List<?>) member.get("instances")).isEmpty()) {
                return member;
            }
        }
        throw new AssertionError("the fixture has a running member");
    }

    @SuppressWarnings("unchecked")
    private static <T> T deepCopy(T node) {
        if (node instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((key, value) -> copy.put(String.valueOf(key), deepCopy(value)));
            return (T) copy;
        }
        if (node instanceof List<?> list) {
            List<Object> copy = new ArrayList<>();
            list.forEach(item -> copy.add(deepCopy(item)));
            return (T) copy;
        }
        return node;
    }
}
