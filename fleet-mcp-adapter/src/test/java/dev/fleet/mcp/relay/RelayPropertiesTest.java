package dev.fleet.mcp.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fleet.testing.Patience;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The relay is transparent (the contract, §12): over random conversations in both directions, every
 * line reaches the other side byte for byte and in order, except exactly the amendments: the
 * child's capabilities, its last list pages, the requests the member answers itself (and their
 * cancellations), whose answers arrive besides.
 */
class RelayPropertiesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> FLEET_TOOLS = List.of("gitea_assess_fleet_inventory", "gitea_get_runtime_context");

    @Test
    void everyLinePassesUnchangedButTheContractsAmendments() {
        qt().withExamples(300).forAll(Conversation.conversations()).checkAssert(RelayPropertiesTest::relayed);
    }

    private static void relayed(Conversation conversation) {
        try (RelayHarness relay = new RelayHarness()) {
            for (Conversation.Line line : conversation.lines()) {
                if (line.fromClient()) {
                    relay.client(line.text());
                } else {
                    relay.child(line.text());
                }
            }
            List<String> toChild = new ArrayList<>();
            List<Conversation.Line> toClient = new ArrayList<>();
            Set<String> ownIds = new HashSet<>();
            for (Conversation.Line line : conversation.lines()) {
                if (line.kind() == Conversation.Kind.OWN_REQUEST) {
                    ownIds.add(JsonRpcIds.key(JSON.readTree(line.text()).get("id")));
                } else if (line.fromClient() && line.kind() != Conversation.Kind.OWN_CANCELLATION) {
                    toChild.add(line.text());
                } else if (!line.fromClient()) {
                    toClient.add(line);
                }
            }
            assertEquals(toChild, relay.childReceived(), "the child receives the client's lines, byte for byte");
            Patience.await(Duration.ofSeconds(20), Duration.ofMillis(5),
                    () -> relay.clientReceived().size() == toClient.size() + ownIds.size(), "every answer");
            List<String> received = new ArrayList<>();
            Set<String> answered = new HashSet<>();
            for (String line : relay.clientReceived()) {
                JsonNode message = JSON.readTree(line);
                String id = JsonRpcIds.key(message.get("id"));
                if (!message.has("method") && ownIds.contains(id)) {
                    assertTrue(message.has("result"), line);
                    answered.add(id);
                } else {
                    received.add(line);
                }
            }
            assertEquals(ownIds, answered, "each request the member answers itself is answered once");
            assertEquals(toClient.size(), received.size());
            for (int i = 0; i < received.size(); i++) {
                assertAmendedOnlyAsAllowed(toClient.get(i), received.get(i), conversation);
            }
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static void assertAmendedOnlyAsAllowed(Conversation.Line sent, String received, Conversation conversation)
            throws Exception {
        switch (sent.kind()) {
            case VERBATIM -> assertEquals(sent.text(), received, "a child line passes byte for byte");
            case CAPABILITIES -> {
                ObjectNode expected = (ObjectNode) JSON.readTree(sent.text());
                ObjectNode capabilities = (ObjectNode) expected.at("/result/capabilities");
                if (!conversation.childHasTools()) {
                    capabilities.putObject("tools");
                }
                ObjectNode resources = conversation.childHasResources() ? (ObjectNode) capabilities.get("resources")
                        : capabilities.putObject("resources");
                resources.put("subscribe", true);
                assertEquals(expected, JSON.readTree(received));
            }
            case LAST_TOOLS_PAGE -> assertAppended(sent.text(), received, "tools", "name", FLEET_TOOLS);
            case LAST_RESOURCES_PAGE -> assertAppended(sent.text(), received, "resources", "uri",
                    List.of("fleet://verdict"));
            default -> throw new AssertionError("not a child line: " + sent);
        }
    }

    /** The page as the child wrote it, with the fleet's entries after its own and nothing else changed. */
    private static void assertAppended(String sent, String received, String list, String key, List<String> fleets)
            throws Exception {
        ObjectNode expected = (ObjectNode) JSON.readTree(sent);
        ObjectNode actual = (ObjectNode) JSON.readTree(received);
        ArrayNode entries = (ArrayNode) actual.at("/result/" + list);
        int own = entries.size() - fleets.size();
        for (int i = 0; i < fleets.size(); i++) {
            assertEquals(fleets.get(i), entries.get(own + i).get(key).asText());
        }
        for (int i = entries.size() - 1; i >= own; i--) {
            entries.remove(i);
        }
        assertEquals(expected, actual);
    }
}
