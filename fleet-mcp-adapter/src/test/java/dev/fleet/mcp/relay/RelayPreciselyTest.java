package dev.fleet.mcp.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * The relay's transparency, precisely (the contract, §12.1), one example each: amended messages keep
 * every other byte, every id MCP allows passes and is matched by value, only the line limit bounds a
 * message, and a refused request is answered with its own id.
 */
class RelayPreciselyTest {

    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}";

    @AutoClose
    private final RelayHarness relay = new RelayHarness();

    @Test
    void anAmendedInitializeResultKeepsNumbersStringsEscapesAndKeyOrderAsTheChildWroteThem() {
        relay.client(INITIALIZE);
        String kept = "\"serverInfo\":{\"name\":\"ch\\u00efld \\\"q\\\"\",\"version\":\"1\"},\"huge\":1e400,"
                + "\"fine\":0.1000000000000000055511151231257827,\"long\":123456789012345678901234567890,\"z\":-0.0";
        relay.child("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{ \"protocolVersion\":\"2025-06-18\", " + kept
                + ",\"capabilities\":{\"logging\":{},\"resources\":{\"subscribe\":false,\"x\":2.50}} }}");
        assertEquals(List.of("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{ \"protocolVersion\":\"2025-06-18\", " + kept
                + ",\"capabilities\":{\"logging\":{},\"resources\":{\"subscribe\":true,\"x\":2.50},\"tools\":{}} }}"),
                relay.clientReceived());
    }

    @Test
    void aLastPageGainsTheFleetEntriesAndLosesAnImpostorWithEveryOtherByteKept() {
        relay.client(INITIALIZE);
        relay.child("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"capabilities\":{\"tools\":{}}}}");
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
        String mine = "{\"name\":\"mine\",\"inputSchema\":{\"maximum\":1e400,\"default\":0.30000000000000004441}}";
        relay.child("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"tools\":[ " + mine
                + " , {\"name\":\"gitea_get_runtime_context\"} ]}}");
        String page = relay.clientReceived().get(1);
        String before = "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"tools\":[ " + mine + ",{\"name\":\"gitea_assess";
        assertTrue(page.startsWith(before), page);
        assertTrue(page.endsWith("} ]}}"), page);
        assertEquals(1, page.split("gitea_get_runtime_context\"", -1).length - 1, "the fleet's own, once: " + page);
    }

    @Test
    void numbersAndKeysAsLongAsALineMayHoldPassAndNestingBeyondAThousandIsRefusedWithItsId() {
        String digits = "7".repeat(1500);
        String key = "k".repeat(60_000);
        String request = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"x\",\"arguments\":{\""
                + key + "\":" + digits + "}}}";
        relay.client(request);
        assertEquals(List.of(request), relay.childReceived());
        String answer = "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"" + key + "\":-" + digits + ".5e-9999}}";
        relay.child(answer);
        assertEquals(List.of(answer), relay.clientReceived());
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"x\",\"params\":" + "[".repeat(1001) + "]".repeat(1001)
                + "}");
        assertTrue(relay.clientReceived().get(1).matches(".*\"id\":4,.*-32600.*1000 levels.*"), relay.clientReceived()
                .get(1));
        assertEquals(1, relay.childReceived().size(), "refused, never forwarded");
    }

    @Test
    void everyIdMcpAllowsPassesAndItsAnswerIsMatchedByValue() {
        List<String> ids = List.of("1.5", "-7", "12345678901234567890", "1e3", "\"1e3\"", "0.1000000000000000055511151231257827");
        List<String> answeredAs = List.of("1.50", "-7.0", "12345678901234567890", "1000", "\"1e3\"",
                "1000000000000000055511151231257827e-34");
        for (String id : ids) {
            relay.client("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\"}");
        }
        assertEquals(ids.size(), relay.childReceived().size(), "each reaches the child");
        for (String id : answeredAs) {
            relay.child("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{}}");
        }
        assertEquals(answeredAs.stream().map(id -> "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{}}").toList(),
                relay.clientReceived(), "each answer reaches the client, as the child wrote it");
        relay.child("{\"jsonrpc\":\"2.0\",\"id\":1.5,\"result\":{}}");
        relay.child("{\"jsonrpc\":\"2.0\",\"id\":1.000000000000000000001,\"result\":{}}");
        assertEquals(ids.size(), relay.clientReceived().size(), "answered once; an id near another is another id");
    }

    @Test
    void aRequestWithANullIdIsRefusedAndNeverForwarded() {
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}");
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"ping\"}");
        assertEquals(List.of(), relay.childReceived());
        assertEquals(2, relay.clientReceived().size());
        relay.clientReceived().forEach(line -> assertTrue(line.matches(".*\"id\":null,.*-32600.*"), line));
    }

    @Test
    void aRefusedRequestIsAnsweredWithItsOwnIdWheneverItCanBeRead() {
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":\"mine\",\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"gitea_assess_fleet_inventory\",\"name\":\"child_tool\"}}");
        relay.client("{\"id\":12345678901234567890.5,\"jsonrpc\":\"2.0\",\"jsonrpc\":\"2.0\",\"method\":\"ping\"}");
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\",}");
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":8,\"id\":9,\"method\":\"ping\"}");
        List<String> replies = relay.clientReceived();
        assertTrue(replies.get(0).matches(".*\"id\":\"mine\",.*-32600.*"), replies.get(0));
        assertTrue(replies.get(1).matches(".*\"id\":12345678901234567890.5,.*-32600.*"), replies.get(1));
        assertTrue(replies.get(2).matches(".*\"id\":7,.*-32700.*"), replies.get(2));
        assertTrue(replies.get(3).matches(".*\"id\":null,.*-32600.*"), "an id given twice names nothing: " + replies);
        assertEquals(List.of(), relay.childReceived());
    }

    @Test
    void aBatchHoldingAFleetRequestIsRefusedWithAnAnswerForEachOfItsRequests() {
        relay.client("[{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"ping\"},{\"jsonrpc\":\"2.0\",\"id\":\"v\",\"method\":"
                + "\"resources/read\",\"params\":{\"uri\":\"fleet://verdict\"}},{\"jsonrpc\":\"2.0\",\"method\":\"x\"}]");
        String reply = relay.clientReceived().get(0);
        assertTrue(reply.matches("\\[\\{.*\"id\":10,.*-32600.*\\},\\{.*\"id\":\"v\",.*-32600.*\\}\\]"), reply);
        assertEquals(List.of(), relay.childReceived());
    }

    @Test
    void aFleetRequestSentAsANotificationNeverReachesTheChild() {
        relay.client(INITIALIZE);
        relay.child("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"capabilities\":{\"tools\":{},\"resources\":{}}}}");
        relay.client("{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"name\":\"gitea_assess_fleet_inventory\"}}");
        relay.client("{\"jsonrpc\":\"2.0\",\"method\":\"resources/subscribe\",\"params\":{\"uri\":\"fleet://verdict\"}}");
        relay.client("[{\"jsonrpc\":\"2.0\",\"method\":\"resources/read\",\"params\":{\"uri\":\"fleet://verdict\"}}]");
        String own = "{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"name\":\"child_tool\"}}";
        relay.client(own);
        assertEquals(List.of(INITIALIZE, own), relay.childReceived());
    }
}
