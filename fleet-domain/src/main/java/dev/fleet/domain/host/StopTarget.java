package dev.fleet.domain.host;

/**
 * One process a stop line may signal: its pid and the start {@code fleet} observed ({@code /proc/PID/stat}
 * field 22, clock ticks since boot), which the line checks again before each signal, so a pid the
 * kernel gave to another process since is never signalled.
 */
record StopTarget(long pid, long startTicks) {
}
