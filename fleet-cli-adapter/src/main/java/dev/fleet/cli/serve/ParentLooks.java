package dev.fleet.cli.serve;

import dev.fleet.domain.lifecycle.ParentAtStart;
import dev.fleet.mcp.stdio.ClientWatch;
import dev.fleet.observer.OwnParent;
import java.time.Instant;
import java.util.OptionalLong;

/**
 * How {@code fleet serve} looks at the process that started it; the domain's {@link ParentAtStart}
 * decides what that proves. The first look is the launcher's when there is one: {@code ./fleet} passes
 * the parent pid bash read at its own start, milliseconds after the fork, as {@value #LAUNCHER_PROPERTY};
 * the JVM reaches its main hundreds of milliseconds later, time enough for a client to die and the
 * server to be adopted unseen. A jar run directly looks for itself, as soon as the command runs.
 */
public final class ParentLooks {

    /** The system property the launcher passes: its parent pid ({@code $PPID}) when it started. */
    public static final String LAUNCHER_PROPERTY = "fleet.launcher.parent";

    private final OwnParent ownParent;
    private final OptionalLong first;

    /** Takes the first look: the launcher's, else this process's own, now. */
    public ParentLooks(OwnParent ownParent) {
        this.ownParent = ownParent;
        OptionalLong launcher = launcherLook();
        this.first = launcher.isPresent() ? launcher : ownParent.pid();
    }

    /** The parent pid of the first look; empty (or 0, from the launcher) when there was no parent. */
    public OptionalLong first() {
        return first;
    }

    /**
     * Looks again, after the first parent's start was read, and decides.
     *
     * @param firstParentStart the first parent's start as the process table reported it, or null
     */
    public ParentAtStart decide(Instant firstParentStart) {
        return ParentAtStart.decide(first, ownParent.pid(), firstParentStart);
    }

    /**
     * A stdio server's watch of its client: its parent's, when a client was recorded; an immediate
     * "client gone" when the client was gone already; none when nothing is known or the server is kept
     * without its client.
     */
    public ClientWatch watch(ParentAtStart atStart, boolean keepWithoutClient) {
        if (keepWithoutClient) {
            return ClientWatch.NONE;
        }
        if (atStart instanceof ParentAtStart.Client client) {
            return new ParentWatch(client.parent().pid(), ownParent);
        }
        if (atStart instanceof ParentAtStart.Gone gone) {
            return clientGone -> clientGone.accept(gone.reason());
        }
        return ClientWatch.NONE;
    }

    /** The launcher's look, when it passed one that reads as a pid. */
    private static OptionalLong launcherLook() {
        String passed = System.getProperty(LAUNCHER_PROPERTY);
        if (passed == null) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(passed.strip()));
        } catch (NumberFormatException notAPid) {
            return OptionalLong.empty();
        }
    }
}
