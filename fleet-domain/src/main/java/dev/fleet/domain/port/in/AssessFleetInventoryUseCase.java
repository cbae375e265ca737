package dev.fleet.domain.port.in;

import dev.fleet.domain.verdict.Verdict;

/** Assess the fleet now: read the registry, observe the process table, classify. Read-only. */
public interface AssessFleetInventoryUseCase {

    Verdict assess();
}
