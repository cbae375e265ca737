package dev.fleet.mcp.http;

/**
 * Reactor's shared bounded-elastic pool, sized beyond the HTTP endpoint's connection cap before Reactor reads
 * its size (once, as its {@code Schedulers} class loads: so this is called first thing in {@code main}).
 *
 * <p>The MCP SDK's servlet of the 2026-07-28 era writes each {@code subscriptions/listen} stream's frames on
 * that pool, with blocking writes: a client that never reads (its socket's buffers full, at once with a listen
 * whose id is 900 KB, since every frame echoes it) holds a thread until Jetty's idle timeout, 60 s. At Reactor's
 * default of ten threads a core (twenty on two cores), twenty such listens took every thread, and every other
 * client waited behind them: an honest listen was acknowledged a minute late and missed a member killed
 * meanwhile. A blocked stream holds a connection, so with more threads than connections it blocks its own thread
 * alone. Threads are made on demand and end after a minute idle, so the larger cap costs nothing unused.
 */
public final class StreamThreads {

    /** Reactor's own setting; one an operator gave (FLEET_JAVA_OPTS) is kept. */
    static final String PROPERTY = "reactor.schedulers.defaultBoundedElasticSize";
    /**
     * Every connection a blocked stream, and threads to spare for the work of the rest (tool calls, the listens'
     * baselines). A compile-time constant: every verb's {@code main} names it, and it loads no class of HTTP's.
     */
    static final int THREADS = 4 * HttpLimits.MAX_CONNECTIONS;

    private StreamThreads() {
    }

    /** Sizes the pool, unless Reactor has been told a size already. Before anything uses Reactor. */
    public static void reserve() {
        if (System.getProperty(PROPERTY) == null) {
            System.setProperty(PROPERTY, Integer.toString(THREADS));
        }
    }
}
