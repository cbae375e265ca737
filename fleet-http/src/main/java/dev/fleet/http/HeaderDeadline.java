package dev.fleet.http;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * A deadline for request headers. An idle timeout alone never fires on a client that trickles a byte
 * every few seconds, so such a client could hold a connection (and, times twenty thousand, every file
 * descriptor) forever. Here every connection is checked once per deadline: if no request has
 * reached the server since the last check (its headers never completed) and none is in progress (a
 * call being answered, an event stream), the connection is closed. A connection whose headers do
 * not complete is therefore closed between one and two deadlines after it opened or after its
 * last request ended.
 *
 * <p>Jetty calls a handler once a request's headers are complete: this wrapper counts requests
 * there, per connection, and the {@link Connection.Listener} half schedules the checks.
 */
public final class HeaderDeadline extends Handler.Wrapper implements Connection.Listener {

    private final Duration deadline;
    private final Scheduler scheduler;
    private final Map<Connection, Activity> connections = new ConcurrentHashMap<>();

    /** Requests begun and in progress on one connection, and the count seen at the last check. */
    private static final class Activity {
        final AtomicLong begun = new AtomicLong();
        final AtomicInteger inProgress = new AtomicInteger();
        long begunAtLastCheck;
        volatile Scheduler.Task check;
    }

    public HeaderDeadline(Duration deadline, Scheduler scheduler) {
        this.deadline = deadline;
        this.scheduler = scheduler;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        Activity activity = connections.get(request.getConnectionMetaData().getConnection());
        if (activity == null) {
            return super.handle(request, response, callback);
        }
        activity.begun.incrementAndGet();
        activity.inProgress.incrementAndGet();
        Callback counted = Callback.from(callback, activity.inProgress::decrementAndGet);
        boolean handled;
        try {
            handled = super.handle(request, response, counted);
        } catch (Throwable failure) {
            activity.inProgress.decrementAndGet();
            throw failure;
        }
        if (!handled) {
            activity.inProgress.decrementAndGet();
        }
        return handled;
    }

    @Override
    public void onOpened(Connection connection) {
        Activity activity = new Activity();
        connections.put(connection, activity);
        schedule(connection, activity);
    }

    @Override
    public void onClosed(Connection connection) {
        Activity activity = connections.remove(connection);
        if (activity != null && activity.check != null) {
            activity.check.cancel();
        }
    }

    private void schedule(Connection connection, Activity activity) {
        activity.check = scheduler.schedule(() -> check(connection, activity), deadline.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    private void check(Connection connection, Activity activity) {
        if (!connections.containsKey(connection)) {
            return;
        }
        long begun = activity.begun.get();
        if (begun == activity.begunAtLastCheck && activity.inProgress.get() == 0) {
            connection.getEndPoint().close();
            return;
        }
        activity.begunAtLastCheck = begun;
        schedule(connection, activity);
    }
}
