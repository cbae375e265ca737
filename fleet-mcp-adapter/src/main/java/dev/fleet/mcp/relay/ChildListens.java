package dev.fleet.mcp.relay;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.core.JsonParser;
import dev.fleet.mcp.VerdictResource;
import dev.fleet.mcp.jsonrpc.JsonRpcId;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The client's {@code subscriptions/listen} requests (2026-07-28) that the child acknowledged with
 * {@value VerdictResource#URI} among the resources it honours. A listen passes to the child unchanged
 * and its acknowledgement comes back unchanged (the contract, §13), so the child decides what the
 * client is told it listens to; where the child honoured the fleet's URI, the fleet keeps that promise:
 * a change of the verdict is announced on that listen, tagged with its subscription id, as the child's
 * own announcements are. A listen ends when the client cancels it or the child answers it.
 *
 * <p>Only a listen still waiting for the child counts ({@link WaitingRequests}): an acknowledgement the
 * child makes up for any other id starts nothing. So this holds at most as many as may wait.
 */
final class ChildListens {

    static final String ACKNOWLEDGED = "notifications/subscriptions/acknowledged";
    static final String SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";
    /** Deep enough for params._meta.subscriptionId and params.notifications.resourceSubscriptions[i]. */
    private static final int DEPTH = 4;

    private final WaitingRequests waiting;
    /** The subscription id key of each listen that honours the verdict, and that id as the child wrote it. */
    private final Map<String, String> honouring;

    ChildListens(WaitingRequests waiting) {
        this(waiting, new ConcurrentHashMap<>());
    }

    /** @param honouring an empty concurrent map (a test's, to replay how the two pumps interleave) */
    ChildListens(WaitingRequests waiting, Map<String, String> honouring) {
        this.waiting = waiting;
        this.honouring = honouring;
    }

    /**
     * The child's acknowledgement in {@code line[start, end)}: true when it honours the verdict on a
     * listen of the client's that waits (from now on, a change is announced on it).
     */
    boolean acknowledged(byte[] line, int start, int end) {
        Span params = Span.read(line, start, end, DEPTH).member("params");
        if (params == null) {
            return false;
        }
        Span meta = params.member("_meta");
        Span id = meta == null ? null : meta.member(SUBSCRIPTION_ID);
        Span filter = params.member("notifications");
        Span uris = filter == null ? null : filter.member("resourceSubscriptions");
        if (id == null || uris == null || !uris.isArray()
                || uris.elements().stream().noneMatch(uri -> VerdictResource.URI.equals(uri.text()))) {
            return false;
        }
        byte[] text = Arrays.copyOfRange(line, id.start(), id.end());
        String key = key(text);
        WaitingRequests.Waiting listen = key == null ? null : waiting.peek(key);
        if (listen == null || !"subscriptions/listen".equals(listen.method())) {
            return false;
        }
        honouring.put(key, new String(text, UTF_8));
        // A cancellation on the client's pump may have come between the look above and the put: it takes the
        // listen out of the waiting requests before it ends it here, so one of the two sides sees the other.
        WaitingRequests.Waiting still = waiting.peek(key);
        if (still == null || !"subscriptions/listen".equals(still.method())) {
            honouring.remove(key);
            return false;
        }
        return true;
    }

    /** The listen of id key {@code key} ended (cancelled, or answered by the child). */
    void ended(String key) {
        if (key != null) {
            honouring.remove(key);
        }
    }

    /** Whether some listen honours the verdict. */
    boolean any() {
        return !honouring.isEmpty();
    }

    /** The subscription ids, as the child wrote them, of the listens that honour the verdict. */
    List<String> subscriptionIds() {
        return List.copyOf(honouring.values());
    }

    /** The id key of a subscription id's JSON text, or null when it is no id MCP allows. */
    private static String key(byte[] text) {
        try (JsonParser parser = ChildLines.READER.factory().createParser(text)) {
            parser.nextToken();
            return JsonRpcId.read(parser, text).key();
        } catch (IOException e) {
            return null;
        }
    }
}
