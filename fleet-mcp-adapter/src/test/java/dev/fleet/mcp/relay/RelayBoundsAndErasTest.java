package dev.fleet.mcp.relay;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.mcp.jsonrpc.JsonRpcReader;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Three finds of a review of the relay: a client's response it refuses is never answered (under its id it
 * would answer a request of the client's own, both sides counting from 0); a list the fleet answers in
 * the child's stead keeps the era its request claimed inside a batch too (§13); and a batch is read to
 * {@value JsonRpcReader#MAX_BATCH} messages at most (a 16 MiB line of {@code [1,1,…]} held half a GiB of
 * records and, where the heap ran out, ended a pump and left the member hanging).
 */
class RelayBoundsAndErasTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @AutoClose
    private final RelayHarness relay = new RelayHarness();

    @Test
    void aResponseTheRelayRefusesIsNotAnsweredUnderItsId() {
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"tools/call\",\"params\":{\"name\":\"deploy\"}}");
        relay.child("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"elicitation/create\",\"params\":{\"message\":\"Sure?\","
                + "\"requestedSchema\":{\"type\":\"object\",\"properties\":{}}}}");
        // The client's answer to the child's request 0 holds a key twice: refused, as every such client line.
        relay.client("{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"action\":\"accept\",\"content\":{\"a\":1,\"a\":2}}}");
        relay.child("{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"content\":[]}}");

        List<String> toClient = relay.clientReceived();
        assertEquals(1, toClient.stream().filter(line -> line.contains("\"id\":0,\"result\"")).count(), toClient::toString);
        assertTrue(toClient.stream().noneMatch(line -> line.contains("\"id\":0,\"error\"")),
                () -> "the client's request 0 got a second answer: " + toClient);
        assertEquals(1, toClient.stream().filter(line -> line.contains("\"id\":null,\"error\"")).count(),
                () -> "the refused response is answered once, under no id: " + toClient);
    }

    @Test
    void aListTheFleetAnswersInTheChildsSteadKeepsTheEraOfItsBatchedRequest() throws Exception {
        relay.client("[{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\",\"params\":{" + RelayModernEraTest.META
                + "}}]");
        relay.child("[{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32601,\"message\":\"Method not found\"}}]");
        JsonNode answer = JSON.readTree(relay.awaitClientLine(line -> line.contains("\"id\":3,")));
        assertEquals("complete", answer.at("/result/resultType").asText(), answer::toString);
        assertEquals(0, answer.at("/result/ttlMs").asInt(-1), answer::toString);
    }

    @Test
    void aClientBatchOverTheBoundIsAnsweredOnceAndNeverReachesTheChild() throws Exception {
        relay.client(batchOfOnes(JsonRpcReader.MAX_BATCH + 1));
        List<String> toClient = relay.clientReceived();
        assertEquals(1, toClient.size(), toClient::toString);
        JsonNode refusal = JSON.readTree(toClient.get(0));
        assertEquals(-32600, refusal.at("/error/code").asInt(), refusal::toString);
        assertTrue(refusal.get("id").isNull(), refusal::toString);
        assertTrue(refusal.at("/error/message").asText().contains("more than " + JsonRpcReader.MAX_BATCH), refusal::toString);
        assertEquals(List.of(), relay.childReceived());
    }

    @Test
    void aBatchOfSixteenMebibytesIsRefusedOnEitherSideWithoutBeingReadWhole() {
        byte[] line = batchOfOnes((16 * 1024 * 1024 - 2) / 2); // eight million elements
        relay.client(line);
        relay.child(line);
        assertEquals(1, relay.clientReceived().size(), "the client's answered once, the child's dropped");
        assertEquals(List.of(), relay.childReceived());
    }

    @Test
    void aBatchAtTheBoundIsReadAsOneAndPassedAsItCame() {
        byte[] line = batchOfOnes(JsonRpcReader.MAX_BATCH); // no request among them: the child's to judge
        relay.client(line);
        assertEquals(List.of(), relay.clientReceived());
        assertEquals(List.of(new String(line, UTF_8)), relay.childReceived());
    }

    private static byte[] batchOfOnes(int elements) {
        byte[] line = new byte[2 * elements + 1];
        Arrays.fill(line, (byte) ',');
        line[0] = '[';
        for (int i = 0; i < elements; i++) {
            line[1 + 2 * i] = '1';
        }
        line[line.length - 1] = ']';
        return line;
    }
}
