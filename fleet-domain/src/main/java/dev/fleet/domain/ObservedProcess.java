package dev.fleet.domain;

import java.time.Duration;
import java.time.Instant;

/**
 * A process the answering process saw itself. {@code startedAt} is null when the OS would not
 * say; {@code matchesServer} is whether a server process pattern is found in its command line.
 */
public record ObservedProcess(long pid, Instant startedAt, String commandLine, String user, boolean matchesServer) {

    /**
     * How far a recorded start may be from an observed one and still name the same process: the OS
     * gives starts in clock ticks since boot, so two honest reads of one start can differ by that
     * rounding, while a recycled pid starts later by far more.
     */
    public static final Duration START_TOLERANCE = Duration.ofSeconds(1);

    /** Whether two known starts are further apart than {@link #START_TOLERANCE}: another process. */
    public static boolean startsDisagree(Instant recorded, Instant observed) {
        return Duration.between(recorded, observed).abs().compareTo(START_TOLERANCE) > 0;
    }
}
