package dev.fleet.domain.verdict;

import dev.fleet.domain.ListingReason;

/** Whether the process table was read, and how many server-looking processes it showed. */
public record ListingSummary(boolean available, ListingReason reason, int serverProcessCount) {
}
