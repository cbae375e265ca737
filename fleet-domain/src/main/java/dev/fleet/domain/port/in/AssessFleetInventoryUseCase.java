package dev.fleet.domain.port.in;

import dev.fleet.domain.verdict.Verdict;

/** Assess the fleet now: read the registry, observe the process table, classify. Read-only. */
public interface AssessFleetInventoryUseCase {

    /**
     * The verdict of the fleet as it is now, with its digest. How it is shown (text, JSON, a tree,
     * metrics) is the adapter's: each renders it from {@code VerdictDocument}, which defines the bytes.
     */
    Verdict assess();
}
