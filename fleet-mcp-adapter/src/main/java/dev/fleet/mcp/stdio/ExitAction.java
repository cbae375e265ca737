package dev.fleet.mcp.stdio;

/**
 * How the stdio server ends the process once its client has gone. Threads other than stdin's reader
 * (the heartbeat's, a tool call's) may still be running, and the exit must not wait for them: the
 * server exits explicitly.
 * Injectable so tests (and the CLI) can observe or replace the exit.
 */
@FunctionalInterface
public interface ExitAction {

    /** Longest a shutdown hook may hold up the exit: the contract wants the process gone within 2 s of EOF. */
    long HALT_AFTER_MILLIS = 1_500;

    void exit(int status);

    /**
     * {@link System#exit}, backed by a daemon watchdog that halts the JVM if some shutdown hook
     * blocks: the row is already marked stopped when this runs, and the 2 s bound matters more than
     * a stuck hook.
     */
    static ExitAction systemExit() {
        return status -> {
            Thread watchdog = new Thread(() -> {
                try {
                    Thread.sleep(HALT_AFTER_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                Runtime.getRuntime().halt(status);
            }, "fleet-mcp-exit-watchdog");
            watchdog.setDaemon(true);
            watchdog.start();
            System.exit(status);
        };
    }
}
