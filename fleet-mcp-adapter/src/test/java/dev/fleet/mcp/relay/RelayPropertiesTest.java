package dev.fleet.mcp.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.fleet.mcp.jsonrpc.JsonRpcId;
import dev.fleet.testing.Patience;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The relay is transparent (the contract, §12 and §12.1): over random conversations in both
 * directions, every line reaches the other side byte for byte and in order, except exactly the
 * amendments: the child's capabilities and list pages, amended in place with every other byte kept
 * (numbers of any size and precision among them), the requests the member answers itself (and their
 * cancellations), whose answers arrive besides, and the child's malformed lines, dropped. Ids of
 * every form MCP allows are matched by value.
 */
class RelayPropertiesTest {

    /** Reads what the relay wrote, numbers of 1,500 digits included. */
    private static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder().streamReadConstraints(
            StreamReadConstraints.builder().maxNumberLength(Integer.MAX_VALUE).build()).build());
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
                    ownIds.add(idKey(line.text()));
                } else if (line.fromClient() && line.kind() != Conversation.Kind.OWN_CANCELLATION) {
                    toChild.add(line.text());
                } else if (!line.fromClient() && line.kind() != Conversation.Kind.DROPPED) {
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
                String id = idKey(line);
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
            case CAPABILITIES -> assertEquals(sent.expected(), received, "capabilities gained, every other byte kept");
            case TOOLS_PAGE -> assertPage(sent.expected(), received, "name", FLEET_TOOLS);
            case RESOURCES_PAGE -> assertPage(sent.expected(), received, "uri", List.of("fleet://verdict"));
            default -> throw new AssertionError("not a child line: " + sent);
        }
    }

    /**
     * The page as the child wrote it, byte for byte, but for an entry of a fleet name left out and, on
     * the last page, the fleet's entries where {@code expected} holds {@code "\0"} (after the last
     * entry kept, with a comma when there is one).
     */
    private static void assertPage(String expected, String received, String key, List<String> fleets)
            throws Exception {
        int marker = expected.indexOf('\0');
        if (marker < 0) {
            assertEquals(expected, received, "a page keeps every byte but an impostor's entry");
            return;
        }
        String before = expected.substring(0, marker);
        String after = expected.substring(marker + 1);
        assertTrue(received.startsWith(before) && received.endsWith(after), () -> "every byte of the child's kept: "
                + expected + " vs " + received);
        String added = received.substring(before.length(), received.length() - after.length());
        boolean afterAnEntry = !before.stripTrailing().endsWith("[");
        assertEquals(afterAnEntry, added.startsWith(","), added);
        ArrayNode entries = (ArrayNode) JSON.readTree("[" + (afterAnEntry ? added.substring(1) : added) + "]");
        assertEquals(fleets, names(entries, key));
    }

    private static List<String> names(ArrayNode entries, String key) {
        List<String> names = new ArrayList<>();
        entries.forEach(entry -> names.add(entry.get(key).asText()));
        return names;
    }

    /** The id key of a message line, as the relay computes it; null when it has no id. */
    private static String idKey(String line) {
        byte[] bytes = line.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        JsonRpcId id = Relay.READER.read(bytes, bytes.length).message().id();
        return id == null ? null : id.key();
    }
}
