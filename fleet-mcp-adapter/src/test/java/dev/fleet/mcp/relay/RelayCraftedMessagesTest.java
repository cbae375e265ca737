package dev.fleet.mcp.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Messages crafted to slip past the relay's routing (the contract, §12 and §12.1), one each: no answer
 * reaches the client under an id it never sent, every request gets an answer, a refused batch is
 * answered request by request, and what the member keeps back stays back inside a batch too.
 */
class RelayCraftedMessagesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @AutoClose
    private final RelayHarness relay = new RelayHarness();

    @Test
    void aLongIdThatDiffersOnlyInALoneSurrogateIsAnotherId() {
        String asked = "A".repeat(300);
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":\"" + asked + "?\",\"method\":\"hang\"}");
        relay.child("{\"jsonrpc\":\"2.0\",\"id\":\"" + asked + "\\udfff\",\"result\":{\"forged\":1}}");
        relay.child("{\"jsonrpc\":\"2.0\",\"id\":\"" + asked + "\\ud800\",\"result\":{\"forged\":2}}");
        assertEquals(List.of(), relay.clientReceived(), "no request of the client's has those ids");
        String answer = "{\"jsonrpc\":\"2.0\",\"id\":\"" + asked + "?\",\"result\":{}}";
        relay.child(answer);
        assertEquals(List.of(answer), relay.clientReceived());
    }

    @Test
    void aFleetRequestWhoseParamsHoldANumberNoDecimalHoldsOrAWrongTypeIsAnsweredWithItsIdInPlainWords() throws Exception {
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"gitea_get_runtime_context\",\"arguments\":{\"x\":1e9999999999}}}");
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"resources/read\",\"params\":{\"uri\":\"fleet://verdict\","
                + "\"_meta\":{\"t\":-1E+2147483648}}}");
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"gitea_get_runtime_context\",\"_meta\":5}}");
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"resources/read\",\"params\":{\"uri\":\"fleet://verdict\","
                + "\"_meta\":5}}");
        for (int id : new int[] {5, 6, 7, 8}) {
            JsonNode answer = JSON.readTree(relay.awaitClientLine(line -> line.contains("\"id\":" + id + ",")));
            assertEquals(-32602, answer.at("/error/code").asInt(), answer.toString());
            String message = answer.at("/error/message").asText();
            assertTrue(message.startsWith("Invalid params: ") && !message.matches("(?s).*(Exception|java\\.|`).*"),
                    "one line in the client's words, never the parser's naming this member's classes: " + message);
        }
        assertEquals(List.of(), relay.childReceived());
    }

    @Test
    void aBatchRefusedWholeIsAnsweredForEachOfItsRequests() throws Exception {
        relay.client("[{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"ping\"},{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"x\","
                + "\"params\":{\"a\":1,\"a\":2}},{\"jsonrpc\":\"2.0\",\"method\":\"n\"},{\"jsonrpc\":\"2.0\",\"id\":13,"
                + "\"id\":14,\"method\":\"y\"}]");
        assertRefusedById(relay.clientReceived().get(0), -32600, List.of(11, 12));
        relay.client("[{\"jsonrpc\":\"2.0\",\"id\":15,\"method\":\"x\",\"params\":" + "[".repeat(1001)
                + "]".repeat(1001) + "},{\"jsonrpc\":\"2.0\",\"id\":16,\"method\":\"y\"}]");
        assertRefusedById(relay.clientReceived().get(1), -32600, List.of(15, 16));
        relay.client("[{\"jsonrpc\":\"2.0\",\"id\":17,\"method\":\"x\"},{\"jsonrpc\":\"2.0\",\"id\":18,\"method\""
                + ":\"y\"}] trailing");
        assertRefusedById(relay.clientReceived().get(2), -32700, List.of(17, 18));
        assertEquals(List.of(), relay.childReceived());
    }

    /** A batch's refusal: one error of {@code code} for each of {@code ids}, in order, and nothing else. */
    private static void assertRefusedById(String reply, int code, List<Integer> ids) throws Exception {
        JsonNode replies = JSON.readTree(reply);
        assertEquals(ids.size(), replies.size(), reply);
        for (int i = 0; i < ids.size(); i++) {
            assertEquals(ids.get(i), replies.get(i).get("id").asInt(), reply);
            assertEquals(code, replies.get(i).at("/error/code").asInt(), reply);
        }
    }

    @Test
    void aChildAnswerWithADuplicateKeyDeepInItsResultPassesAsItCameAndOneWithTwoIdsIsDropped() {
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":\"c\",\"method\":\"tools/call\",\"params\":{\"name\":\"child_tool\"}}");
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":\"d\",\"method\":\"ping\"}");
        relay.child("{\"jsonrpc\":\"2.0\",\"id\":\"d\",\"id\":\"c\",\"result\":{}}");
        assertEquals(List.of(), relay.clientReceived(), "which of two ids it answers cannot be told");
        String answer = "{\"jsonrpc\":\"2.0\",\"id\":\"c\",\"result\":{\"content\":[],\"structuredContent\":{\"k\":1,"
                + "\"k\":2}}}";
        String batch = "[{\"jsonrpc\":\"2.0\",\"id\":\"d\",\"result\":{\"k\":1,\"k\":2}}]";
        relay.child(answer);
        relay.child(batch);
        assertEquals(List.of(answer, batch), relay.clientReceived());
    }

    @Test
    void aCancellationOfTheMembersOwnRequestIsCutFromABatchAndAFleetNotificationAlone() throws Exception {
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":\"v\",\"method\":\"resources/read\",\"params\":{\"uri\":\"fleet://verdict\"}}");
        relay.awaitClientLine(line -> line.contains("\"id\":\"v\""));
        String other = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"}";
        relay.client("[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"v\"}}, "
                + other + " ]");
        assertEquals(1, relay.childReceived().size());
        assertEquals(JSON.readTree("[" + other + "]"), JSON.readTree(relay.childReceived().get(0)));
        assertTrue(relay.childReceived().get(0).contains(other), "the rest as it came: " + relay.childReceived());
        relay.client("[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"v\"}},"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"resources/read\",\"params\":{\"uri\":\"fleet://verdict\"}}]");
        assertEquals(1, relay.childReceived().size(), "a batch with nothing left for the child is not sent");
        assertEquals(1, relay.clientReceived().size(), "a batch of notifications gets no reply: "
                + relay.clientReceived());
    }
}
