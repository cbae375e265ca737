package dev.fleet.domain;

import java.time.Duration;
import java.time.Instant;

/**
 * A process the answering process saw itself. {@code startedAt} is null when the OS would not
 * say; {@code commandLine} is its arguments joined by single spaces with their secrets masked, argument by
 * argument ({@link SecretMask#argv}), since it is kept and shown; {@code matchesServer} is whether a server
 * process pattern is found in its command line as it is, unmasked;
 * {@code parentPid} is the pid the OS gives as its parent, null when unreadable or none (pid 1's). A
 * process the table shows dead (a zombie, not yet reaped) is no process and is never observed.
 */
public record ObservedProcess(long pid, Instant startedAt, String commandLine, String user, boolean matchesServer,
        Long parentPid) {

    /**
     * How far a recorded start may be from an observed one and still name the same process: the OS
     * gives starts in clock ticks since boot, so two honest reads of one start can differ by that
     * rounding, while a recycled pid starts later by far more.
     */
    public static final Duration START_TOLERANCE = Duration.ofSeconds(1);

    /**
     * Generations of ancestors an observation looks up above a server-looking process, and a served
     * process may be below the server it descends from: process trees are a few levels deep, and a
     * bound keeps a crafted chain from costing more.
     */
    public static final int MAX_ANCESTRY = 32;

    /** A process whose parent is not known. */
    public ObservedProcess(long pid, Instant startedAt, String commandLine, String user, boolean matchesServer) {
        this(pid, startedAt, commandLine, user, matchesServer, null);
    }

    /** Whether two known starts are further apart than {@link #START_TOLERANCE}: another process. */
    public static boolean startsDisagree(Instant recorded, Instant observed) {
        return Duration.between(recorded, observed).abs().compareTo(START_TOLERANCE) > 0;
    }
}
