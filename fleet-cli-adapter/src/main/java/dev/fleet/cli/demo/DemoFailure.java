package dev.fleet.cli.demo;

import dev.fleet.domain.Failures;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeoutException;

/**
 * Why the demo could not go on, in one line for stderr: which server and which wait, never a
 * library's exception with its stack. The demo then ends with exit 1 (an expected verdict was not
 * seen), after cleaning up as always.
 */
public final class DemoFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    DemoFailure(String message) {
        super(message);
    }

    /**
     * @param what what did not happen, e.g. "the reviewer (pid 12) did not complete the MCP handshake"
     * @param server the server concerned, when there is one, to tell whether it has exited
     */
    static DemoFailure of(String what, Throwable cause, Process server) {
        if (server != null && !server.isAlive()) {
            return new DemoFailure(what + ": it exited with status " + server.exitValue());
        }
        if (isTimeout(cause)) {
            return new DemoFailure(what + " within " + seconds(DemoFleet.PATIENCE) + " (is this host very busy?)");
        }
        return new DemoFailure(what + ": " + describe(cause));
    }

    /**
     * One line about any failure: its own message for a {@code DemoFailure}, else the innermost
     * cause's, which says what went wrong (the wrappers around it name only the wrapped exception).
     */
    public static String describe(Throwable failure) {
        if (failure instanceof DemoFailure demo) {
            return demo.getMessage();
        }
        if (isTimeout(failure)) {
            return "no answer within " + seconds(DemoFleet.PATIENCE);
        }
        return Failures.oneLine(Failures.innermost(failure));
    }

    private static boolean isTimeout(Throwable failure) {
        return Failures.chain(failure).stream().anyMatch(TimeoutException.class::isInstance);
    }

    static String seconds(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + " s"
                : String.format(Locale.ROOT, "%.3f s", duration.toMillis() / 1000.0);
    }
}
