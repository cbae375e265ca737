package dev.fleet.cli.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What the phases of the load-and-fault suite ({@link LoadAndFaultIT}) share beyond its state: every
 * wait bounded, the daemon threads it starts (none outlives the JVM's tests), durations as figures.
 */
final class LoadHelpers {

    private LoadHelpers() {
    }

    static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
    }

    static <T> List<T> concat(List<T> a, List<T> b) {
        List<T> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    static Thread daemon(String name, Runnable body) {
        Thread thread = new Thread(body, "load-" + name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** Runs a blocking call on its own thread and gives up after {@code limit}. */
    static <T> T within(Duration limit, String what, Callable<T> call) throws Exception {
        CompletableFuture<T> future = new CompletableFuture<>();
        daemon("bounded-call", () -> {
            try {
                future.complete(call.call());
            } catch (Throwable e) {
                future.completeExceptionally(e);
            }
        });
        try {
            return future.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError(what + " did not complete within " + limit.toSeconds() + " s");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw new AssertionError(e.getCause());
        }
    }
}
