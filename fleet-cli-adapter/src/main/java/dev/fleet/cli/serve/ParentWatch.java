package dev.fleet.cli.serve;

import dev.fleet.mcp.stdio.ClientWatch;
import dev.fleet.observer.OwnParent;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * A stdio server's watch of the client that started it. A client that crashes while something else
 * still holds the server's stdin (a wrapper, a sibling that inherited the pipe) never closes it: the
 * server would run on as an orphan, and the client's next start would make a second fleet. When the
 * client dies the kernel reparents the server at once, so its own parent pid, read once a
 * {@link #PERIOD} (from {@code /proc/self/stat}: no signal, no process started), stops being the one it
 * recorded at start. Then the server stops as on stdin EOF. A parent pid that cannot be read proves
 * nothing and is read again at the next tick.
 */
public final class ParentWatch implements ClientWatch {

    /**
     * How often the parent is read: with the stop's own bound, the server is gone within 2 s of its client, and a
     * wrapping member's tree too, whose teardown takes up to 1.5 s of them (once a second left it 2.5 s, the relay
     * audit's find). A read of {@code /proc/self/stat} costs microseconds.
     */
    public static final Duration PERIOD = Duration.ofMillis(250);

    private final long recordedParent;
    private final OwnParent ownParent;

    /** @param recordedParent the parent pid this server recorded when it started */
    public ParentWatch(long recordedParent, OwnParent ownParent) {
        this.recordedParent = recordedParent;
        this.ownParent = ownParent;
    }

    @Override
    public void start(Consumer<String> clientGone) {
        // Its own daemon thread, which swallows what a tick throws and never keeps the JVM alive.
        AtomicReference<Runnable> cancel = new AtomicReference<>(() -> { });
        cancel.set(new DaemonHeartbeatScheduler().schedule(() -> {
            OptionalLong now = ownParent.pid();
            if (now.isPresent() && now.getAsLong() != recordedParent) {
                cancel.get().run();
                clientGone.accept("client gone: parent pid " + recordedParent + " exited (this server now has parent pid "
                        + now.getAsLong() + ")");
            }
        }, PERIOD));
    }
}
