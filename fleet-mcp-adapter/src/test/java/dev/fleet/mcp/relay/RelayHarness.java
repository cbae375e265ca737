package dev.fleet.mcp.relay;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.fleet.mcp.FleetAnswers;
import dev.fleet.mcp.FleetMcpServer;
import dev.fleet.mcp.Fixtures;
import dev.fleet.mcp.stdio.LineOutput;
import dev.fleet.testing.Patience;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

/**
 * A relay between two in-memory sides: what the client sends goes in through {@link #client},
 * what the child writes through {@link #child}, and each side's received lines are read back whole.
 * The member's own answers come from a real {@link dev.fleet.mcp.FleetMcpServer} whose assessment
 * is a fixed, healthy fleet.
 */
final class RelayHarness implements AutoCloseable {

    private final ByteArrayOutputStream toClient = new ByteArrayOutputStream();
    private final ByteArrayOutputStream toChild = new ByteArrayOutputStream();
    /** One member for every relay of a test run: registered once, so no answer waits for a registration. */
    private static final FleetAnswers MEMBER = registeredMember();

    final Relay relay;

    RelayHarness() {
        this(MEMBER);
    }

    /** A relay in front of {@code member}, a member already registered. */
    RelayHarness(FleetAnswers member) {
        relay = new Relay(member, new LineOutput(toClient, "the client"), new LineOutput(toChild, "the child"));
    }

    private static FleetAnswers registeredMember() {
        return registered(Fixtures.stdioMember());
    }

    /** {@code member}'s answers, once it has registered (nowhere: its registry is in memory). */
    static FleetAnswers registered(FleetMcpServer member) {
        member.register();
        return member.answers();
    }

    void client(String line) {
        client(line.getBytes(UTF_8));
    }

    void client(byte[] line) {
        relay.fromClient(line, line.length);
    }

    void child(String line) {
        child(line.getBytes(UTF_8));
    }

    void child(byte[] line) {
        relay.fromChild(line, line.length);
    }

    /** Every line the client has received so far. */
    List<String> clientReceived() {
        return lines(toClient);
    }

    /** Every line the child has received so far. */
    List<String> childReceived() {
        return lines(toChild);
    }

    /** Waits (bounded, scaled by the host's load) for a client line that {@code wanted} accepts. */
    String awaitClientLine(Predicate<String> wanted) throws InterruptedException {
        long deadline = System.nanoTime() + Patience.scaled(java.time.Duration.ofSeconds(20)).toNanos();
        while (System.nanoTime() < deadline) {
            for (String line : clientReceived()) {
                if (wanted.test(line)) {
                    return line;
                }
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no such line reached the client; it has: " + clientReceived());
    }

    /**
     * The whole lines written so far. A line being written by another thread (the member's own
     * answers) may be half there: it is left for the next look.
     */
    private static List<String> lines(ByteArrayOutputStream out) {
        String text = new String(out.toByteArray(), UTF_8);
        int end = text.lastIndexOf('\n');
        return end < 0 ? List.of() : Arrays.asList(text.substring(0, end).split("\n", -1));
    }

    @Override
    public void close() {
        relay.close();
    }
}
