package dev.fleet.domain.verdict;

import java.util.List;

/**
 * The bound on every list a verdict shows: a registry of 100,000 rows on dead pids must still give an
 * answer that fits any client (a CLI's terminal, an MCP client's line). Each list keeps its first
 * {@value #MAX_ENTRIES} entries in the contract's order, and {@code omitted_entries} says how many
 * of the rest were left out, list by list; both are digested.
 */
public final class VerdictLists {

    /** The contract: entries a verdict list shows at most. */
    public static final int MAX_ENTRIES = 100;

    private VerdictLists() {
    }

    /** The entries of {@code list} that are shown. */
    public static <T> List<T> shown(List<T> list) {
        return list.size() <= MAX_ENTRIES ? list : list.subList(0, MAX_ENTRIES);
    }

    /** How many entries of {@code list} are left out. */
    public static int omitted(List<?> list) {
        return Math.max(0, list.size() - MAX_ENTRIES);
    }
}
