package dev.fleet.domain.verdict;

/**
 * A pid means one process only within one pid namespace ({@code namespace} null: unknown, taken as the
 * answerer's). A map key once per running row.
 */
record PidInNamespace(long pid, String namespace) {
}
