package dev.fleet.mcp.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * A request under an id that another request of the client's, forwarded to the child, still waits under (equal by
 * value: {@code 3} and {@code 3.0}) is refused with -32600 and its id, and never reaches the child. Forwarded, it
 * took the first request's place: the child's two answers under that id met one waiting request, so one was dropped
 * and a request went unanswered, and the first answer was amended (or not) as the second request's method said (a
 * {@code tools/list} page reached the client without the fleet's tools).
 */
class RelayIdInUseTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @AutoClose
    private final RelayHarness relay = new RelayHarness();

    @Test
    void aRequestUnderAWaitingIdIsRefusedAndTheFirstIsAnsweredAsItsOwnMethodSays() throws Exception {
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}");
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":3.0,\"method\":\"vendor/other\"}");
        assertEquals(1, relay.childReceived().size(), "the second never reaches the child: " + relay.childReceived());
        JsonNode refused = JSON.readTree(relay.clientReceived().get(0));
        assertEquals("3.0", refused.get("id").toString(), "refused under its own id: " + refused);
        assertEquals(-32600, refused.at("/error/code").asInt(), refused.toString());

        relay.child("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"tools\":[{\"name\":\"echo\",\"inputSchema\":{}}]}}");
        assertEquals(2, relay.clientReceived().size(), relay.clientReceived().toString());
        assertTrue(relay.clientReceived().get(1).contains("gitea_assess_fleet_inventory"),
                "the last tools/list page gains the fleet tools: " + relay.clientReceived().get(1));
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}");
        assertEquals(2, relay.childReceived().size(), "once answered, the id is free again");
    }

    /**
     * A request the fleet answers itself, under the id of a forwarded one still waiting for the child, is refused as a
     * forwarded one is: answered, the client got two answers under one id (the fleet's assessment, then the child's
     * tools/list page), and whichever came first resolved the other request.
     */
    @Test
    void aRequestTheFleetAnswersUnderAWaitingIdIsRefusedToo() throws Exception {
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/list\"}");
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"gitea_assess_fleet_inventory\",\"arguments\":{}}}");
        JsonNode refused = JSON.readTree(relay.awaitClientLine(line -> line.contains("\"id\":5")));
        assertEquals(-32600, refused.at("/error/code").asInt(), "refused, not answered: " + refused.has("result"));
        relay.child("{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{\"tools\":[]}}");
        relay.awaitClientLine(line -> line.contains("gitea_assess_fleet_inventory") && line.contains("\"tools\""));
        relay.relay.close(); // lets any answer under way go out
        assertEquals(2, relay.clientReceived().size(), "one refusal, one tools/list page: " + relay.clientReceived());
    }

    @Test
    void aBatchHoldingAWaitingIdOrOneIdTwiceIsRefusedForEachOfItsRequests() throws Exception {
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"slow\"}");
        relay.client("[{\"jsonrpc\":\"2.0\",\"id\":\"b\",\"method\":\"x\"},{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"y\"}]");
        relay.client("[{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"x\"},{\"jsonrpc\":\"2.0\",\"id\":7.0,\"method\":\"y\"}]");
        assertEquals(1, relay.childReceived().size(), "neither batch reaches the child: " + relay.childReceived());
        List<String> replies = relay.clientReceived();
        assertEquals(2, replies.size(), replies.toString());
        assertEquals(List.of("\"b\"", "\"a\""), ids(replies.get(0)));
        assertEquals(List.of("7", "7.0"), ids(replies.get(1)));
    }

    @Test
    void aRequestUnderAnOpenListensIdIsRefusedAndTheListenStaysOpen() throws Exception {
        String meta = RelayModernEraTest.META;
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":\"L\",\"method\":\"subscriptions/listen\",\"params\":{" + meta
                + ",\"notifications\":{\"resourceSubscriptions\":[\"fleet://verdict\"]}}}");
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":\"L\",\"method\":\"tools/list\",\"params\":{" + meta + "}}");
        assertEquals(1, relay.childReceived().size(), relay.childReceived().toString());
        assertEquals(List.of("\"L\""), ids("[" + relay.clientReceived().get(0) + "]"));
        String ended = "{\"jsonrpc\":\"2.0\",\"id\":\"L\",\"result\":{\"resultType\":\"complete\"}}";
        relay.child(ended);
        assertEquals(ended, relay.clientReceived().get(1), "the child's end of the listen reaches the client as it came");
    }

    private static List<String> ids(String batch) throws Exception {
        JsonNode replies = JSON.readTree(batch);
        replies.forEach(reply -> assertEquals(-32600, reply.at("/error/code").asInt(), batch));
        return java.util.stream.StreamSupport.stream(replies.spliterator(), false)
                .map(reply -> reply.get("id").toString()).toList();
    }
}
