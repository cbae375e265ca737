package dev.fleet.mcp.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * The relay in MCP's 2026-07-28 era (the contract, §13), between two in-memory sides, with the lines a
 * real TypeScript SDK 2.4.0 client and server wrote: §12's amendments on their new-era equivalents,
 * the fleet's own answers in the era the request claims, {@code input_required}, listens and every
 * {@code _meta} passing unchanged, and a list the child does not know answered by the fleet.
 */
class RelayModernEraTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** What the TypeScript SDK 2.4.0 client puts in every request's params. */
    static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"demo-client\",\"version\":\"0.0.1\"},"
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";
    private static final String SERVER_INFO = "\"_meta\":{\"io.modelcontextprotocol/serverInfo\":{\"name\":"
            + "\"modern-child\",\"version\":\"1.0.0\"}}";

    @AutoClose
    private final RelayHarness relay = new RelayHarness();

    @Test
    void aModernChildsDiscoverResultKeepsEveryByteButTheCapabilitiesTheFleetAdds() {
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":\"server-discover-probe-1\",\"method\":\"server/discover\","
                + "\"params\":{" + META + "}}");
        String subscribable = "{\"result\":{\"supportedVersions\":[\"2026-07-28\"],\"capabilities\":{\"tools\":{"
                + "\"listChanged\":true},\"resources\":{\"subscribe\":true,\"listChanged\":true}},\"resultType\":"
                + "\"complete\",\"ttlMs\":0,\"cacheScope\":\"private\"," + SERVER_INFO + "},\"jsonrpc\":\"2.0\",\"id\":"
                + "\"server-discover-probe-1\"}";
        relay.child(subscribable);
        assertEquals(List.of(subscribable), relay.clientReceived(), "nothing to add: byte for byte");

        relay.client("{\"jsonrpc\":\"2.0\",\"id\":\"server-discover-probe-2\",\"method\":\"server/discover\","
                + "\"params\":{" + META + "}}");
        String toolsOnly = "{\"result\":{\"supportedVersions\":[\"2026-07-28\"],\"capabilities\":{\"tools\":{"
                + "\"listChanged\":true}},\"resultType\":\"complete\",\"ttlMs\":0,\"cacheScope\":\"private\","
                + SERVER_INFO + "},\"jsonrpc\":\"2.0\",\"id\":\"server-discover-probe-2\"}";
        relay.child(toolsOnly);
        assertEquals(toolsOnly.replace("{\"tools\":{\"listChanged\":true}}",
                "{\"tools\":{\"listChanged\":true},\"resources\":{\"subscribe\":true}}"), last(relay.clientReceived()));
    }

    @Test
    void aModernChildsLastToolsPageGainsTheFleetToolsAndKeepsItsCacheFieldsAndMeta() throws Exception {
        String request = "{\"method\":\"tools/list\",\"jsonrpc\":\"2.0\",\"id\":0,\"params\":{" + META + "}}";
        relay.client(request);
        assertEquals(List.of(request), relay.childReceived(), "the request and its _meta pass unchanged");
        String mine = "{\"name\":\"hello_modern\",\"description\":\"says hello\",\"inputSchema\":{\"type\":\"object\","
                + "\"properties\":{}}}";
        String tail = "],\"resultType\":\"complete\",\"ttlMs\":0,\"cacheScope\":\"private\"," + SERVER_INFO
                + "},\"jsonrpc\":\"2.0\",\"id\":0}";
        relay.child("{\"result\":{\"tools\":[" + mine + tail);
        String page = relay.clientReceived().get(0);
        assertTrue(page.startsWith("{\"result\":{\"tools\":[" + mine + ",{\"name\":\"gitea_assess_fleet_inventory\""),
                page);
        assertTrue(page.endsWith("}" + tail), page);
        assertEquals(List.of("hello_modern", "gitea_assess_fleet_inventory", "gitea_get_runtime_context"),
                names(JSON.readTree(page).at("/result/tools"), "name"));
    }

    @Test
    void theFleetsOwnAnswersCarryTheModernFieldsOnlyWhereTheRequestClaimsTheEra() throws Exception {
        relay.client("{\"method\":\"tools/call\",\"params\":{\"name\":\"gitea_assess_fleet_inventory\",\"arguments\":{},"
                + META + "},\"jsonrpc\":\"2.0\",\"id\":1}");
        relay.client("{\"method\":\"resources/read\",\"params\":{\"uri\":\"fleet://verdict\"," + META
                + "},\"jsonrpc\":\"2.0\",\"id\":2}");
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"gitea_assess_fleet_inventory\",\"arguments\":{}}}");
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"resources/read\",\"params\":{\"uri\":"
                + "\"fleet://verdict\"}}");
        JsonNode call = answer(1);
        assertEquals("complete", call.get("resultType").asText(), call.toString());
        assertFalse(call.has("ttlMs"), "a tool's result is not cached: " + call);
        assertTrue(call.at("/structuredContent/mutation_gate_satisfied").asBoolean(), call.toString());
        JsonNode read = answer(2);
        assertEquals(List.of("complete", "0", "private"), List.of(read.get("resultType").asText(),
                read.get("ttlMs").asText(), read.get("cacheScope").asText()), read.toString());
        JsonNode call2025 = answer(3);
        JsonNode read2025 = answer(4);
        assertFalse(call2025.has("resultType") || read2025.has("resultType") || read2025.has("ttlMs")
                || read2025.has("cacheScope"), "the 2025 era exactly as before: " + call2025 + " " + read2025);
        ((com.fasterxml.jackson.databind.node.ObjectNode) call).remove("resultType");
        assertEquals(call2025, call, "the same answer in both eras, but for resultType");
        assertEquals(List.of(), relay.childReceived(), "none reached the child");
    }

    /** A plain member answers a 2026-07-28 resources/subscribe -32601 (a listen subscribes): the relay too. */
    @Test
    void aModernSubscribeToTheVerdictIsMethodNotFoundAsAPlainMemberAnswersIt() throws Exception {
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"resources/subscribe\",\"params\":{\"uri\":"
                + "\"fleet://verdict\"," + META + "}}");
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"resources/subscribe\",\"params\":{\"uri\":"
                + "\"fleet://verdict\"}}");
        JsonNode modern = JSON.readTree(relay.awaitClientLine(line -> line.contains("\"id\":5")));
        assertEquals(-32601, modern.at("/error/code").asInt(), modern.toString());
        JsonNode legacy = JSON.readTree(relay.awaitClientLine(line -> line.contains("\"id\":6")));
        assertTrue(legacy.has("result") && !legacy.get("result").has("resultType"), "2025 as before: " + legacy);
        assertEquals(List.of(), relay.childReceived(), "neither reached the child");
    }

    @Test
    void whereTheModernChildHasNoToolsTheFleetListsThemInTheRequestsEra() throws Exception {
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":\"d\",\"method\":\"server/discover\",\"params\":{" + META + "}}");
        relay.child("{\"result\":{\"supportedVersions\":[\"2026-07-28\"],\"capabilities\":{},\"resultType\":"
                + "\"complete\",\"ttlMs\":0,\"cacheScope\":\"private\"},\"jsonrpc\":\"2.0\",\"id\":\"d\"}");
        relay.client("{\"method\":\"tools/list\",\"jsonrpc\":\"2.0\",\"id\":5,\"params\":{" + META + "}}");
        JsonNode tools = answer(5);
        assertEquals(List.of("gitea_assess_fleet_inventory", "gitea_get_runtime_context"),
                names(tools.get("tools"), "name"));
        assertEquals(List.of("complete", "0", "private"), List.of(tools.get("resultType").asText(),
                tools.get("ttlMs").asText(), tools.get("cacheScope").asText()), tools.toString());
        assertEquals(1, relay.childReceived().size(), "the child saw server/discover only");
    }

    @Test
    void aListTheChildDoesNotKnowIsAnsweredByTheFleetWithItsOwnEntriesInTheRequestsEra() throws Exception {
        String[][] lists = {{"tools/list", "tools"}, {"resources/list", "resources"},
            {"resources/templates/list", "resourceTemplates"}};
        int id = 10;
        for (String[] list : lists) {
            for (boolean modern : new boolean[] {true, false}) {
                id++;
                relay.client("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + list[0] + "\""
                        + (modern ? ",\"params\":{" + META + "}" : "") + "}");
                relay.child("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"error\":{\"code\":-32601,\"message\":"
                        + "\"Method not found\"}}");
                JsonNode result = answer(id);
                assertTrue(result.get(list[1]).isArray(), result.toString());
                assertEquals(modern, result.has("resultType") && result.has("ttlMs") && result.has("cacheScope"),
                        list[0] + " in the " + (modern ? "2026-07-28" : "2025") + " era: " + result);
            }
        }
        assertEquals(List.of("fleet://verdict"), names(answer(13).get("resources"), "uri"));
        assertTrue(relay.clientReceived().stream().noneMatch(line -> line.contains("-32601")),
                "the child's -32601 never reaches the client: " + relay.clientReceived());
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":20,\"method\":\"tools/list\",\"params\":{" + META + "}}");
        String otherError = "{\"jsonrpc\":\"2.0\",\"id\":20,\"error\":{\"code\":-32603,\"message\":\"broken\"}}";
        relay.child(otherError);
        assertEquals(otherError, last(relay.clientReceived()), "any other error passes as it came");
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":21,\"method\":\"prompts/list\",\"params\":{" + META + "}}");
        String promptsUnknown = "{\"jsonrpc\":\"2.0\",\"id\":21,\"error\":{\"code\":-32601,\"message\":\"no\"}}";
        relay.child(promptsUnknown);
        assertEquals(promptsUnknown, last(relay.clientReceived()), "the fleet lists no prompts: passed");
    }

    /** An input_required answer to server/discover holds no capabilities: it passes as it came, as any other (§13). */
    @Test
    void anInputRequiredAnswerToDiscoverGainsNoCapabilities() {
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":\"d\",\"method\":\"server/discover\",\"params\":{" + META + "}}");
        String inputRequired = "{\"jsonrpc\":\"2.0\",\"id\":\"d\",\"result\":{\"resultType\":\"input_required\","
                + "\"inputRequests\":{\"r1\":{\"method\":\"elicitation/create\",\"params\":{\"message\":\"confirm?\","
                + "\"requestedSchema\":{\"type\":\"object\"}}}},\"requestState\":\"abc\"}}";

        relay.child(inputRequired);

        assertEquals(List.of(inputRequired), relay.clientReceived());
    }

    @Test
    void inputRequiredResultsListensTheirAcknowledgementsAndTaggedNotificationsPassByteForByte() {
        String call = "{\"method\":\"tools/call\",\"params\":{\"name\":\"deploy\",\"arguments\":{},\"_meta\":{"
                + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\""
                + ":{\"elicitation\":{}},\"vendor/trace\":\"t-1\",\"progressToken\":7}},\"jsonrpc\":\"2.0\",\"id\":1}";
        String listPage = "{\"method\":\"tools/list\",\"jsonrpc\":\"2.0\",\"id\":2,\"params\":{" + META + "}}";
        String listen = "{\"jsonrpc\":\"2.0\",\"id\":\"listen:0\",\"method\":\"subscriptions/listen\",\"params\":{"
                + META + ",\"notifications\":{\"toolsListChanged\":true,\"resourceSubscriptions\":[\"demo://counter\","
                + "\"fleet://verdict\"]}}}";
        String cancel = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":"
                + "\"listen:0\"," + META + "}}";
        relay.client(call);
        relay.client(listPage);
        relay.client(listen);
        String inputRequired = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"resultType\":\"input_required\","
                + "\"inputRequests\":{\"confirm\":{\"method\":\"elicitation/create\",\"params\":{\"message\":\"Sure?\","
                + "\"requestedSchema\":{\"type\":\"object\",\"properties\":{}}}}},\"requestState\":\"opaque==\","
                + SERVER_INFO + "}}";
        String listInputRequired = "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"resultType\":\"input_required\","
                + "\"requestState\":\"s\"}}";
        String ack = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/subscriptions/acknowledged\",\"params\":{"
                + "\"notifications\":{\"toolsListChanged\":true,\"resourceSubscriptions\":[\"demo://counter\","
                + "\"fleet://verdict\"]},\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":\"listen:0\"}}}";
        String updated = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\",\"params\":{\"uri\":"
                + "\"demo://counter\",\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":\"listen:0\"}}}";
        String closed = "{\"jsonrpc\":\"2.0\",\"id\":\"listen:0\",\"result\":{\"resultType\":\"complete\",\"_meta\":{"
                + "\"io.modelcontextprotocol/subscriptionId\":\"listen:0\"}}}";
        for (String line : List.of(inputRequired, listInputRequired, ack, updated, closed)) {
            relay.child(line);
        }
        relay.client(cancel);
        assertEquals(List.of(call, listPage, listen, cancel), relay.childReceived());
        assertEquals(List.of(inputRequired, listInputRequired, ack, updated, closed), relay.clientReceived());
    }

    private JsonNode answer(int id) throws Exception {
        String line = relay.awaitClientLine(text -> text.contains("\"id\":" + id + ",") || text.endsWith(
                "\"id\":" + id + "}"));
        return JSON.readTree(line).get("result");
    }

    private static List<String> names(JsonNode entries, String key) {
        return StreamSupport.stream(entries.spliterator(), false).map(entry -> entry.get(key).asText()).toList();
    }

    private static String last(List<String> lines) {
        return lines.get(lines.size() - 1);
    }
}
