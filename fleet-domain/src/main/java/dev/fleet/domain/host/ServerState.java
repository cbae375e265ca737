package dev.fleet.domain.host;

/**
 * What a configured server's process is to its client (the contract, §14), with its name in every
 * output. The strays are what the operator may stop; a {@link #MANUAL} server is never one.
 */
public enum ServerState {
    CURRENT("current", false),
    STALE_GENERATION("stale_generation", true),
    DUPLICATE("duplicate", true),
    ORPHANED("orphaned", true),
    LEFTOVER("leftover", true),
    MANUAL("manual", false),
    /** Shown with {@code --all} only: looks like an MCP server, matches no configured entry. */
    UNCONFIGURED("unconfigured", false);

    private final String label;
    private final boolean stray;

    ServerState(String label, boolean stray) {
        this.label = label;
        this.stray = stray;
    }

    public String label() {
        return label;
    }

    /** Whether a process in this state is a stray, with a stop line. */
    public boolean stray() {
        return stray;
    }
}
