package dev.fleet.domain.lifecycle;

import java.time.Instant;
import java.util.OptionalLong;

/**
 * The process that started this server, as far as that can still be told when the server registers.
 * Once a process has been reparented the kernel keeps no record of who forked it, so the parent is
 * taken from the earliest look there is (the {@code fleet} launcher's, milliseconds after the fork,
 * else the server's own) and believed only while it is still the server's parent: a client that died
 * while the JVM was starting leaves its server adopted by pid 1 or a subreaper, which must never be
 * recorded as its client (its cohort would look like a real one and could open the gate). Pid 1 is never
 * taken for a client either: an adopted process cannot tell it from a parent that started it.
 */
public sealed interface ParentAtStart permits ParentAtStart.Client, ParentAtStart.Unknown, ParentAtStart.Gone {

    /** The parent to record ({@code parent_pid}, {@code parent_started_at}), or null. */
    ParentProcess recorded();

    /** The client that started this server, still its parent: recorded, and watched over stdio. */
    record Client(ParentProcess parent) implements ParentAtStart {
        @Override
        public ParentProcess recorded() {
            return parent;
        }
    }

    /**
     * Nothing to tell: no parent in this pid namespace (the server is its namespace's first process) or
     * a parent pid that cannot be read. Nothing is recorded and nothing is watched.
     */
    record Unknown() implements ParentAtStart {
        @Override
        public ParentProcess recorded() {
            return null;
        }
    }

    /**
     * The client was gone before this server could record it: nothing is recorded, and a stdio server
     * stops as an orphan (unless kept).
     *
     * @param firstParent the parent pid of the earliest look
     * @param nowParent the parent pid now (the adopter), or the same pid when that was pid 1
     */
    record Gone(long firstParent, long nowParent) implements ParentAtStart {
        @Override
        public ParentProcess recorded() {
            return null;
        }

        /** Why, in the words of a server's one log line. */
        public String reason() {
            if (firstParent == 1) {
                return "no client: this server's parent was pid 1 from its start (its client exited before it, "
                        + "or pid 1 started it, which cannot be told apart)";
            }
            return "client gone: parent pid " + firstParent + " exited while this server started (this server now "
                    + "has parent pid " + nowParent + ")";
        }
    }

    /**
     * The rule: no parent at the first look is unknown; pid 1 at the first look is no client; a parent
     * pid that changed since is a client gone; one that cannot be read now proves nothing; else the
     * first parent, still the parent, is the client. While it is the parent it is alive and its pid is
     * its own (the kernel reparents a child before its parent's pid can be reused), so the start read
     * between the two looks is its start.
     *
     * @param firstParent the parent pid at the earliest look; empty (or not positive) when there was none
     * @param nowParent the parent pid now, after {@code parentStart} was read; empty when it cannot be read
     * @param parentStart the first parent's start instant as the process table reports it, or null
     */
    static ParentAtStart decide(OptionalLong firstParent, OptionalLong nowParent, Instant parentStart) {
        if (firstParent.isEmpty() || firstParent.getAsLong() <= 0) {
            return new Unknown();
        }
        long first = firstParent.getAsLong();
        if (first == 1) {
            return new Gone(1, nowParent.orElse(1));
        }
        if (nowParent.isEmpty()) {
            return new Unknown();
        }
        if (nowParent.getAsLong() != first) {
            return new Gone(first, nowParent.getAsLong());
        }
        return new Client(new ParentProcess(first, parentStart));
    }
}
