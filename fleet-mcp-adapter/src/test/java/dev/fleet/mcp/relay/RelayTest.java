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

/** The relay's amendments and refusals (the contract, §12), one by one, between two in-memory sides. */
class RelayTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";

    @AutoClose
    private final RelayHarness relay = new RelayHarness();

    @Test
    void theChildsCapabilitiesGainToolsAndSubscribableResourcesAndNothingElse() throws Exception {
        relay.client(INITIALIZE);
        assertEquals(List.of(INITIALIZE), relay.childReceived(), "initialize reaches the child unchanged");
        relay.child("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{"
                + "\"logging\":{},\"resources\":{\"subscribe\":false,\"listChanged\":true}},\"serverInfo\":{\"name\":"
                + "\"child\",\"version\":\"9\"},\"instructions\":\"mine\"}}");
        JsonNode result = JSON.readTree(relay.clientReceived().get(0)).get("result");
        assertEquals(JSON.readTree("{\"logging\":{},\"resources\":{\"subscribe\":true,\"listChanged\":true},"
                + "\"tools\":{}}"), result.get("capabilities"));
        assertEquals("mine", result.get("instructions").asText());
        assertEquals("9", result.at("/serverInfo/version").asText());
    }

    @Test
    void aChildWithoutToolsHasTheFleetAnswerToolsList() throws Exception {
        initialize("{}");
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":\"t\",\"method\":\"tools/list\"}");
        JsonNode tools = JSON.readTree(relay.awaitClientLine(line -> line.contains("\"id\":\"t\""))).at("/result/tools");
        assertEquals(List.of("gitea_assess_fleet_inventory", "gitea_get_runtime_context"), names(tools, "name"));
        assertEquals(1, relay.childReceived().size(), "the child saw initialize only");
    }

    @Test
    void onlyTheLastToolsPageGainsTheFleetToolsAndAChildToolOfAFleetNameIsHidden() throws Exception {
        initialize("{\"tools\":{}}");
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
        String firstPage = "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"tools\":[{\"name\":\"a\",\"inputSchema\":{}}],"
                + "\"nextCursor\":\"c1\"}}";
        relay.child(firstPage);
        assertEquals(firstPage, last(relay.clientReceived()), "a page with a cursor passes byte for byte");
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\",\"params\":{\"cursor\":\"c1\"}}");
        relay.child("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"tools\":[{\"name\":\"gitea_get_runtime_context\"},"
                + "{\"name\":\"b\"}],\"nextCursor\":null}}");
        JsonNode tools = JSON.readTree(last(relay.clientReceived())).at("/result/tools");
        assertEquals(List.of("b", "gitea_assess_fleet_inventory", "gitea_get_runtime_context"), names(tools, "name"));
        assertTrue(tools.get(1).has("outputSchema"), "the fleet's own definition, not the child's");
    }

    @Test
    void aFleetToolCallIsAnsweredHereAndItsCancellationNeverReachesTheChild() throws Exception {
        initialize("{\"tools\":{}}");
        int before = relay.childReceived().size();
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"gitea_assess_fleet_inventory\",\"arguments\":{}}}");
        relay.client("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":7}}");
        JsonNode answer = JSON.readTree(relay.awaitClientLine(line -> line.contains("\"id\":7")));
        assertTrue(answer.at("/result/structuredContent/mutation_gate_satisfied").asBoolean(), answer.toString());
        assertEquals(before, relay.childReceived().size(), "neither the call nor its cancellation reached the child");
        String childCancel = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":8}}";
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":{\"name\":\"slow\"}}");
        relay.client(childCancel);
        assertEquals(childCancel, last(relay.childReceived()), "a cancellation of the child's own request passes");
    }

    /**
     * An id is free again once its request is answered: the client may reuse the id of a fleet tool call
     * for a request of the child's, and cancelling that one reaches the child and drops its late answer.
     * Before, an id once the fleet's was taken for the fleet's for good, and its cancellation swallowed.
     */
    @Test
    void theCancellationOfAChildsRequestReachesItThoughItsIdWasOnceAFleetCalls() throws Exception {
        initialize("{\"tools\":{}}");
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"gitea_get_runtime_context\",\"arguments\":{}}}");
        relay.awaitClientLine(line -> line.contains("\"id\":7"));
        int answered = relay.clientReceived().size();
        String cancel = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":7}}";
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"slow\"}}");
        relay.client(cancel);
        assertEquals(cancel, last(relay.childReceived()), "the cancellation of the child's request reaches it");
        relay.child("{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"content\":[]}}");
        assertEquals(answered, relay.clientReceived().size(), "its late answer is dropped");
    }

    @Test
    void theChildNeverAnswersForTheFleetNorTwiceForOneRequest() throws Exception {
        initialize("{\"tools\":{}}");
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"name\":\"x\"}}");
        int before = relay.clientReceived().size();
        relay.child("{\"jsonrpc\":\"2.0\",\"id\":99,\"result\":{\"content\":[]}}");
        relay.child("{\"jsonrpc\":\"2.0\",\"id\":\"9\",\"result\":{\"content\":[]}}");
        assertEquals(before, relay.clientReceived().size(), "an id the client never sent, or of another type, is dropped");
        relay.child("{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{\"content\":[]}}");
        relay.child("{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"again\"}]}}");
        assertEquals(before + 1, relay.clientReceived().size(), "only the first answer to a request passes");
        relay.child("not json at all");
        assertEquals(before + 1, relay.clientReceived().size(), "the client's stdout carries JSON-RPC only");
    }

    @Test
    void aDuplicateKeyIsRefusedBeforeTheChildCouldReadAnotherName() throws Exception {
        initialize("{\"tools\":{}}");
        int before = relay.childReceived().size();
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"gitea_assess_fleet_inventory\",\"name\":\"child_tool\"}}");
        JsonNode error = JSON.readTree(relay.awaitClientLine(line -> line.contains("-32600"))).get("error");
        assertEquals(-32600, error.get("code").asInt());
        assertEquals(before, relay.childReceived().size());
    }

    @Test
    void aBatchHoldingAFleetRequestIsRefusedAndAnyOtherPassesWhole() throws Exception {
        initialize("{\"tools\":{}}");
        int before = relay.childReceived().size();
        relay.client("[{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"ping\"},{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":"
                + "\"resources/read\",\"params\":{\"uri\":\"fleet://verdict\"}}]");
        relay.awaitClientLine(line -> line.contains("batch may not hold"));
        assertEquals(before, relay.childReceived().size());
        String batch = "[{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"ping\"},{\"jsonrpc\":\"2.0\",\"method\":\"x\"}]";
        relay.client(batch);
        assertEquals(batch, last(relay.childReceived()));
        String answers = "[{\"jsonrpc\":\"2.0\",\"id\":12,\"result\":{}}]";
        relay.child(answers);
        assertEquals(answers, last(relay.clientReceived()));
    }

    /**
     * A method and an id with a result or an error is neither a request nor a response: refused with its
     * id (-32600), alone or in a batch, never passed on nor left waiting for the child's answer.
     */
    @Test
    void aRequestThatAlsoAnswersIsRefusedAndNeverWaits() throws Exception {
        initialize("{\"tools\":{}}");
        int before = relay.childReceived().size();
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":30,\"method\":\"ping\",\"result\":{}}");
        JsonNode refused = JSON.readTree(relay.awaitClientLine(line -> line.contains("\"id\":30")));
        assertEquals(-32600, refused.at("/error/code").asInt(), refused.toString());
        relay.client("[{\"jsonrpc\":\"2.0\",\"id\":31,\"method\":\"ping\",\"error\":{\"code\":1,\"message\":\"m\"}},"
                + "{\"jsonrpc\":\"2.0\",\"id\":32,\"method\":\"ping\"}]");
        JsonNode batch = JSON.readTree(relay.awaitClientLine(line -> line.contains("\"id\":31")));
        assertEquals(-32600, batch.get(0).at("/error/code").asInt(), batch.toString());
        assertEquals(before, relay.childReceived().size(), "neither line reached the child");
        int answered = relay.clientReceived().size();
        relay.child("{\"jsonrpc\":\"2.0\",\"id\":30,\"result\":{}}");
        relay.child("{\"jsonrpc\":\"2.0\",\"id\":31,\"result\":{}}");
        assertEquals(answered, relay.clientReceived().size(), "no request waits under those ids");
    }

    @Test
    void theVerdictResourceIsTheFleetsOnTheLastPageAndItsReadIsAnsweredHere() throws Exception {
        initialize("{\"resources\":{}}");
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":20,\"method\":\"resources/list\"}");
        relay.child("{\"jsonrpc\":\"2.0\",\"id\":20,\"result\":{\"resources\":[{\"uri\":\"file:///a\",\"name\":\"a\"},"
                + "{\"uri\":\"fleet://verdict\",\"name\":\"impostor\"}]}}");
        JsonNode resources = JSON.readTree(last(relay.clientReceived())).at("/result/resources");
        assertEquals(List.of("file:///a", "fleet://verdict"), names(resources, "uri"));
        assertEquals("fleet-verdict", resources.get(1).get("name").asText());
        int before = relay.childReceived().size();
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":21,\"method\":\"resources/read\",\"params\":{\"uri\":\"fleet://verdict\"}}");
        JsonNode read = JSON.readTree(relay.awaitClientLine(line -> line.contains("\"id\":21")));
        String text = read.at("/result/contents/0/text").asText();
        assertTrue(JSON.readTree(text).get("mutation_gate_satisfied").asBoolean(), text);
        assertEquals(before, relay.childReceived().size());
    }

    @Test
    void badClientLinesAreAnsweredHereAndNeverReachTheChild() throws Exception {
        relay.client("{not json");
        relay.client("42");
        relay.client("");
        relay.awaitClientLine(line -> line.contains("-32700"));
        relay.awaitClientLine(line -> line.contains("a JSON-RPC message is an object"));
        relay.relay.clientLineTooLong(16);
        relay.awaitClientLine(line -> line.contains("line longer than 16 bytes"));
        assertEquals(List.of(), relay.childReceived());
        assertFalse(relay.clientReceived().isEmpty());
    }

    @Test
    void aChildLineThatIsNotExactlyOneWellFormedMessageIsDroppedAndTakesNoAnswersPlace() throws Exception {
        initialize("{\"tools\":{}}");
        int before = relay.clientReceived().size(); // counted before id 31, which the fleet answers when it is ready
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":30,\"method\":\"tools/call\",\"params\":{\"name\":\"x\"}}");
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":31,\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"gitea_assess_fleet_inventory\",\"arguments\":{}}}");
        for (String id : List.of("30", "31")) {
            for (String malformed : List.of("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\",\"result\":{}}",
                    "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{},\"error\":{\"code\":1,\"message\":\"m\"}}",
                    "{\"jsonrpc\":\"2.0\",\"id\":" + id + "}", "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{}} 1",
                    "{\"jsonrpc\":\"2.0\",\"method\":7,\"id\":" + id + "}",
                    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"id\":null}",
                    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"error\":{}}", "[]", "42", "null")) {
                relay.child(malformed);
            }
        }
        relay.awaitClientLine(line -> line.contains("\"id\":31"));
        assertEquals(before + 1, relay.clientReceived().size(), "only the fleet's own answer: " + relay.clientReceived());
        String answer = "{\"jsonrpc\":\"2.0\",\"id\":30,\"result\":{\"content\":[]}}";
        relay.child(answer);
        assertEquals(answer, last(relay.clientReceived()), "the request still waits for its true answer");
    }

    @Test
    void aChildBatchLosesItsMalformedElementsAndKeepsEveryOtherByte() {
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":40,\"method\":\"ping\"}");
        relay.child("[ {\"jsonrpc\":\"2.0\",\"id\":41,\"result\":{}} , {\"jsonrpc\":\"2.0\",\"id\":40,\"result\":"
                + "{\"n\":1e400}} ,\t{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"id\":null} ]");
        assertEquals(List.of("[ {\"jsonrpc\":\"2.0\",\"id\":40,\"result\":{\"n\":1e400}} ]"), relay.clientReceived());
    }

    @Test
    void cancelledRequestsFreeTheirPlaceSoThatALongSessionStillAnswers() {
        for (int id = 1; id <= 5_000; id++) {
            relay.client("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"slow\"}}");
            relay.client("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":" + id
                    + "}}");
        }
        assertEquals(List.of(), relay.clientReceived(), "no request was refused");
        assertEquals(10_000, relay.childReceived().size(), "every request and cancellation reached the child");
        relay.child("{\"jsonrpc\":\"2.0\",\"id\":17,\"result\":{}}");
        assertEquals(List.of(), relay.clientReceived(), "a late answer to a cancelled request is dropped");
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":\"next\",\"method\":\"ping\"}");
        String answer = "{\"jsonrpc\":\"2.0\",\"id\":\"next\",\"result\":{}}";
        relay.child(answer);
        assertEquals(List.of(answer), relay.clientReceived());
    }

    private void initialize(String capabilities) {
        relay.client(INITIALIZE);
        relay.child("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":"
                + capabilities + ",\"serverInfo\":{\"name\":\"child\",\"version\":\"1\"}}}");
    }

    private static List<String> names(JsonNode entries, String key) {
        return StreamSupport.stream(entries.spliterator(), false).map(entry -> entry.get(key).asText()).toList();
    }

    private static String last(List<String> lines) {
        return lines.get(lines.size() - 1);
    }
}
