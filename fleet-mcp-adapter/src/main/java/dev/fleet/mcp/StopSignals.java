package dev.fleet.mcp;

import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * The signals whose default action would end a server without its stop: each ends it the way SIGTERM
 * does (shutdown hook: the row is marked stopped), exiting 128 + the signal's number.
 *
 * <p>Left alone by their default: the JVM's own HUP, INT and TERM (already a clean stop); QUIT,
 * whose thread dump the launcher sends to stderr ({@code -XX:+DisplayVMOutputToStderr}); signals
 * ignored by default (CHLD, URG, WINCH, PIPE, XFSZ); and the ones that mean a fault, a debugger or
 * a profiler (SEGV, BUS, FPE, ILL, ABRT, TRAP, SYS, PROF), which end the process as SIGKILL does:
 * its row reads as exited once it is gone. USR2 is, by default, the JVM's suspend/resume signal
 * (used by JFR's sampler only): a USR2 from outside crashed the JVM with an {@code hs_err} file.
 * Taking it here makes it a clean stop; the launcher moves the JVM's own use elsewhere
 * ({@code _JAVA_SR_SIGNUM}) so JFR keeps working where it is wanted.
 */
public final class StopSignals {

    /** The contract's list, by the JVM's names (without SIG). */
    public static final List<String> NAMES = List.of("HUP", "USR1", "USR2", "ALRM", "VTALRM", "PWR", "STKFLT", "IO", "XCPU");

    private static final Logger LOG = LoggerFactory.getLogger(StopSignals.class);
    /** HUP, INT and TERM are the JVM's: it runs the shutdown hooks for them by itself. */
    private static final List<String> JVM_HANDLED = List.of("HUP");

    private StopSignals() {
    }

    /** Installs the handlers; a signal the JVM refuses (e.g. under {@code -Xrs}) keeps its default. */
    public static void install() {
        for (String name : NAMES) {
            if (JVM_HANDLED.contains(name)) {
                continue;
            }
            try {
                Signal.handle(new Signal(name), StopSignals::stop);
            } catch (IllegalArgumentException e) {
                LOG.debug("SIG{} keeps its default action: {}", name, e.getMessage());
            }
        }
    }

    private static void stop(Signal signal) {
        LOG.info("SIG{} received: marking this server stopped and exiting, as on SIGTERM", signal.getName());
        System.exit(128 + signal.getNumber());
    }
}
