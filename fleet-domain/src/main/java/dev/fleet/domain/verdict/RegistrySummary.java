package dev.fleet.domain.verdict;

import dev.fleet.domain.RegistryReason;

/**
 * Whether the registry was read, and how many rows (any status) it held. {@code detail} says more
 * about an unreadable one (the columns a table lacks); it goes into the blocked reason, not the JSON.
 */
public record RegistrySummary(boolean readable, RegistryReason reason, String detail, int registrationCount) {
}
