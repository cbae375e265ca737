package dev.fleet.bench;

import java.util.List;

/**
 * The three sides {@link RelayLatency} compares, each the same MCP server ({@link RelayChild}): called
 * directly, behind the raw byte relay ({@link RawRelay}, the floor), and behind a wrapping member
 * ({@code fleet serve -- COMMAND}). Figures are indexed by {@link #DIRECT}, {@link #RAW}, {@link #FLEET}.
 */
record RelaySides(RawPeer direct, RawPeer raw, RawPeer fleet) {

    static final int DIRECT = 0;
    static final int RAW = 1;
    static final int FLEET = 2;
    static final List<String> NAMES = List.of("direct", "raw relay", "fleet relay");

    /** Every order of the three: taken in turn, each side goes before and after each other side equally often. */
    private static final int[][] ORDERS = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};

    RawPeer get(int side) {
        return List.of(direct, raw, fleet).get(side);
    }

    /** The sides' indices in the order of turn {@code turn} (a call, a round). */
    static int[] order(int turn) {
        return ORDERS[turn % ORDERS.length];
    }
}
