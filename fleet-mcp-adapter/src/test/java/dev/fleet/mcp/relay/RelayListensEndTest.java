package dev.fleet.mcp.relay;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.mcp.Fixtures;
import dev.fleet.mcp.jsonrpc.JsonRpcId;
import java.lang.reflect.Field;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * A listen the child acknowledged for {@code fleet://verdict} is announced on until the client cancels it
 * or the child ends it (the contract, §13), and no longer: not when the cancellation comes on the client's
 * pump while the child's pump reads the acknowledgement, nor once the child answered it though the client sent
 * another request under the listen's id, which the relay refuses (a review saw 4,106 ended listens still announced on).
 */
class RelayListensEndTest {

    private static final String META = RelayModernEraTest.META;

    @AutoClose
    private final RelayHarness relay = new RelayHarness();

    @Test
    void aCancellationBetweenTheLookAndTheRecordOfAnAcknowledgementEndsTheListen() {
        WaitingRequests waiting = new WaitingRequests();
        String key = JsonRpcId.ofValue("L").key();
        ChildListens[] listens = new ChildListens[1];
        // The client's pump cancels (as Relay.cancelled does: out of the waiting requests, then ended) just
        // as the child's pump records the acknowledgement it has found to name a waiting listen.
        listens[0] = new ChildListens(waiting, new ConcurrentHashMap<>() {
            @Override
            public String put(String id, String text) {
                waiting.cancel(key);
                listens[0].ended(key);
                return super.put(id, text);
            }
        });
        waiting.add(key, "subscriptions/listen", true);
        byte[] ack = ack("L").getBytes(UTF_8);

        assertFalse(listens[0].acknowledged(ack, 0, ack.length), "a cancelled listen is not honoured");
        assertFalse(listens[0].any(), "nor announced on: " + listens[0].subscriptionIds());
    }

    @Test
    void aListenWhoseIdAnotherRequestClaimedIsStillEndedByItsOwnAnswer() throws Exception {
        for (int i = 0; i < Relay.MAX_FORWARDED + 10; i++) {
            String id = "L" + i;
            relay.client(listen(id));
            relay.child(ack(id));
            relay.client("{\"jsonrpc\":\"2.0\",\"id\":\"" + id + "\",\"method\":\"ping\"}"); // refused: L waits
            relay.child("{\"jsonrpc\":\"2.0\",\"id\":\"" + id + "\",\"result\":{}}");
        }
        ChildListens listens = listens();
        assertFalse(listens.any(), listens.subscriptionIds().size() + " listens announced on, none waiting");
    }

    @Test
    void aListenEndedByTheChildsMethodNotFoundIsNoLongerAnnouncedOn() throws Exception {
        relay.client(listen("L"));
        relay.child(ack("L"));
        relay.child("{\"jsonrpc\":\"2.0\",\"id\":\"L\",\"error\":{\"code\":-32601,\"message\":\"Method not found\"}}");
        assertTrue(relay.clientReceived().stream().anyMatch(line -> line.contains("-32601")), "the child's error passes");
        ChildListens listens = listens();
        assertFalse(listens.any(), "announced on: " + listens.subscriptionIds());
    }

    @Test
    void anAcknowledgedListenIsAnnouncedOnUntilTheChildEndsIt() throws Exception {
        relay.client(listen("L"));
        relay.child(ack("L"));
        ChildListens listens = listens();
        assertEquals(java.util.List.of("\"L\""), listens.subscriptionIds());
        relay.child("{\"jsonrpc\":\"2.0\",\"id\":\"L\",\"result\":{\"resultType\":\"complete\"}}");
        assertTrue(relay.clientReceived().stream().anyMatch(line -> line.contains("\"resultType\":\"complete\"")));
        assertFalse(listens.any());
    }

    /**
     * The child's acknowledgement of a listen reaches the client only once the member's watcher has its baseline:
     * a change the client makes as soon as it sees the acknowledgement is announced on the listen. Passed on at
     * once, that change could be the watcher's first look, and go unannounced.
     */
    @Test
    void aChangeRightAfterTheAcknowledgementIsAnnounced() throws Exception {
        AtomicBoolean sixth = new AtomicBoolean();
        try (RelayHarness changing = new RelayHarness(RelayHarness.registered(Fixtures.stdioMember(sixth::get)))) {
            changing.client(listen("L"));
            changing.child(ack("L"));
            assertTrue(changing.clientReceived().stream().anyMatch(line -> line.contains("subscriptions/acknowledged")));
            sixth.set(true);

            String updated = changing.awaitClientLine(line -> line.contains("notifications/resources/updated"));
            assertTrue(updated.contains("\"L\""), updated);
        }
    }

    /** The relay's listens: what it announces a verdict change on (no accessor; Relay is at its size bound). */
    private ChildListens listens() throws ReflectiveOperationException {
        Field field = Relay.class.getDeclaredField("listens");
        field.setAccessible(true);
        return (ChildListens) field.get(relay.relay);
    }

    private static String listen(String id) {
        return "{\"jsonrpc\":\"2.0\",\"id\":\"" + id + "\",\"method\":\"subscriptions/listen\",\"params\":{" + META
                + ",\"notifications\":{\"resourceSubscriptions\":[\"fleet://verdict\"]}}}";
    }

    private static String ack(String id) {
        return "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/subscriptions/acknowledged\",\"params\":{"
                + "\"notifications\":{\"resourceSubscriptions\":[\"fleet://verdict\"]},\"_meta\":{"
                + "\"io.modelcontextprotocol/subscriptionId\":\"" + id + "\"}}}";
    }
}
