package dev.fleet.mcp.relay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import dev.fleet.domain.Failures;
import dev.fleet.mcp.FleetAnswers;
import dev.fleet.mcp.RequestParams;
import dev.fleet.mcp.VerdictResource;
import dev.fleet.mcp.jsonrpc.JsonRpcEnvelope;
import dev.fleet.mcp.jsonrpc.JsonRpcError;
import dev.fleet.mcp.jsonrpc.JsonRpcId;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The requests a wrapping member answers itself ({@link OwnRequest}), on a thread of their own so
 * that the client's other messages flow on to the child meanwhile: an assessment takes a while, and
 * the contract lets the member's own answers go out when ready. At most
 * {@value #MAX_IN_FLIGHT} wait: the client's pump blocks (stops reading stdin) beyond that, as a
 * plain member's does.
 */
final class OwnAnswers implements AutoCloseable {

    static final int MAX_IN_FLIGHT = 64;
    /** Ids of answered own requests kept, so that a late {@code notifications/cancelled} for one is still dropped. */
    private static final int REMEMBERED = 1024;
    /**
     * How long answers under way may take once the member ends (beside the child's teardown): its row must
     * be stopped within 1 s of SIGTERM.
     */
    static final long FINISH_MILLIS = 700;
    private static final Logger LOG = LoggerFactory.getLogger(OwnAnswers.class);
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final FleetAnswers fleet;
    private final Amendments amendments;
    private final ChildListens listens;
    private final Consumer<JsonNode> toClient;
    private final Semaphore slots = new Semaphore(MAX_IN_FLIGHT);
    private final ExecutorService worker = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "fleet-relay-own-answers");
        thread.setDaemon(true);
        return thread;
    });
    private final Set<String> ownIds = Collections.synchronizedSet(new LinkedHashSet<>());
    private final FleetAnswers.VerdictWatch verdictWatch;
    private volatile boolean subscribed;

    /** @param listens the client's listens on which the child honoured the verdict (2026-07-28) */
    OwnAnswers(FleetAnswers fleet, Amendments amendments, ChildListens listens, Consumer<JsonNode> toClient) {
        this.fleet = Objects.requireNonNull(fleet, "fleet");
        this.amendments = Objects.requireNonNull(amendments, "amendments");
        this.listens = Objects.requireNonNull(listens, "listens");
        this.toClient = Objects.requireNonNull(toClient, "toClient");
        this.verdictWatch = fleet.watchVerdict(() -> subscribed || listens.any(), this::verdictUpdated);
    }

    /**
     * A listen came to honour the verdict: watch it, if nothing does yet, and return once the watcher has its
     * baseline, so that the child's acknowledgement, passed on after this, is followed by every change (the child's
     * pump waits one assessment, once: a watcher already running has its baseline).
     */
    void listening() {
        verdictWatch.subscribed();
    }

    /** Whether {@code idKey} names a request this member answers or answered itself. */
    boolean isOwn(String idKey) {
        return idKey != null && ownIds.contains(idKey);
    }

    /**
     * Answers {@code request} when ready, in the 2026-07-28 era where it claimed it ({@code modern}),
     * else exactly as in 2025; blocks while {@value #MAX_IN_FLIGHT} answers are still to come.
     */
    void answer(OwnRequest request, JsonRpcId id, JsonNode params, boolean modern) {
        synchronized (ownIds) {
            ownIds.add(id.key());
            if (ownIds.size() > REMEMBERED + MAX_IN_FLIGHT) {
                ownIds.remove(ownIds.iterator().next());
            }
        }
        slots.acquireUninterruptibly();
        Runnable answering = () -> {
            try {
                toClient.accept(response(request, id, params, modern));
            } finally {
                slots.release();
            }
        };
        try {
            worker.execute(answering);
        } catch (RejectedExecutionException ending) {
            // The member is ending: a list the child does not know, which its last lines may still say
            // (answered in its stead), or a request the client sends on after a signal, is answered here,
            // on the pump that read it, rather than lost.
            answering.run();
        }
    }

    /** Stops the verdict's watcher, and lets the answers already asked for go out, for at most {@value #FINISH_MILLIS} ms. */
    @Override
    public void close() {
        verdictWatch.close();
        worker.shutdown();
        try {
            worker.awaitTermination(FINISH_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        slots.release(worker.shutdownNow().size()); // answers never begun free their places
    }

    private JsonNode response(OwnRequest request, JsonRpcId id, JsonNode params, boolean modern) {
        if (modern && (request == OwnRequest.SUBSCRIBE_VERDICT || request == OwnRequest.UNSUBSCRIBE_VERDICT)) {
            // The 2026-07-28 era has no resources/subscribe (a listen subscribes), as a plain member answers it.
            return new JsonRpcError(JsonRpcError.METHOD_NOT_FOUND, "Method not found: resources/"
                    + (request == OwnRequest.SUBSCRIBE_VERDICT ? "subscribe" : "unsubscribe")).node(id);
        }
        JsonNode meta = params == null ? null : params.get("_meta");
        if (meta != null && !meta.isObject() && !meta.isNull() && request.readsTheVerdict()) {
            // As a plain member refuses it: the SDK reads a read's or a subscription's _meta as a map.
            return new JsonRpcError(JsonRpcError.INVALID_PARAMS, "Invalid params: "
                    + RequestParams.notOfItsType("_meta")).node(id);
        }
        McpSchema.CallToolRequest call = null;
        if (request == OwnRequest.CALL_FLEET_TOOL) {
            try { // only the params' reading: any other failure is the member's own, an internal error
                call = fleet.mapper().convertValue(params, McpSchema.CallToolRequest.class);
            } catch (IllegalArgumentException unreadable) {
                return new JsonRpcError(JsonRpcError.INVALID_PARAMS, "Invalid params: "
                        + RequestParams.unlike(unreadable)).node(id);
            }
        }
        try {
            ObjectNode result = result(request, call);
            return JsonRpcEnvelope.result(id, modern ? inTheModernEra(request, result) : result);
        } catch (RuntimeException e) {
            LOG.error("answering {} failed", request, e);
            return new JsonRpcError(JsonRpcError.INTERNAL_ERROR, "Internal error: " + Failures.withKind(e)).node(id);
        }
    }

    /**
     * A result as the 2026-07-28 era has it: {@code resultType} on every one (the TypeScript 2.x client
     * refuses one without), and on a list or a read how long it stays fresh and for whom, as a plain
     * member answers them: the verdict may change at any moment ({@code ttlMs: 0}), and the lists claim
     * nothing either ({@code private}).
     */
    private static ObjectNode inTheModernEra(OwnRequest request, ObjectNode result) {
        result.put("resultType", "complete");
        if (request.cacheable()) {
            result.put("ttlMs", 0).put("cacheScope", "private");
        }
        return result;
    }

    /** @param call the fleet tool's call, read from the params, for {@code CALL_FLEET_TOOL}; else null */
    private ObjectNode result(OwnRequest request, McpSchema.CallToolRequest call) {
        return switch (request) {
            case CALL_FLEET_TOOL -> tree(fleet.call(call));
            case READ_VERDICT -> tree(fleet.readVerdict());
            case SUBSCRIBE_VERDICT -> {
                subscribed = true;
                verdictWatch.subscribed();
                yield NODES.objectNode();
            }
            case UNSUBSCRIBE_VERDICT -> {
                subscribed = false;
                yield NODES.objectNode();
            }
            case LIST_TOOLS -> NODES.objectNode().set("tools", amendments.fleetTools());
            case LIST_RESOURCES -> NODES.objectNode().set("resources", NODES.arrayNode().add(amendments.verdictResource()));
            case LIST_RESOURCE_TEMPLATES -> NODES.objectNode().set("resourceTemplates", NODES.arrayNode());
        };
    }

    private ObjectNode tree(Object value) {
        return fleet.mapper().convertValue(value, ObjectNode.class);
    }

    /**
     * The verdict changed: told to a 2025 subscriber, and on each listen whose acknowledgement honoured
     * it, tagged with that listen's subscription id as the child's own announcements are (2026-07-28).
     */
    private void verdictUpdated() {
        if (subscribed) {
            toClient.accept(updated());
        }
        for (String subscriptionId : listens.subscriptionIds()) {
            ObjectNode notification = updated();
            ((ObjectNode) notification.get("params")).putObject("_meta").set(ChildListens.SUBSCRIPTION_ID,
                    NODES.rawValueNode(new RawValue(subscriptionId)));
            toClient.accept(notification);
        }
    }

    private static ObjectNode updated() {
        return JsonRpcEnvelope.notification("notifications/resources/updated",
                NODES.objectNode().put("uri", VerdictResource.URI));
    }
}
