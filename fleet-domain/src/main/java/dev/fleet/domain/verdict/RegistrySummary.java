package dev.fleet.domain.verdict;

import dev.fleet.domain.RegistryReason;

/** Whether the registry was read, and how many rows (any status) it held. */
public record RegistrySummary(boolean readable, RegistryReason reason, int registrationCount) {
}
