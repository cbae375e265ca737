package dev.fleet.mcp.stdio;

import java.util.function.Consumer;

/**
 * Besides stdin EOF, another way a stdio server learns that its client has gone: the CLI's watch of
 * this process's parent (a client that crashed while something else still holds the pipe never closes
 * stdin). The server stops as on EOF when told, with the line it is given.
 */
@FunctionalInterface
public interface ClientWatch {

    /** No watch: only stdin EOF and the stop signals end the server ({@code --keep-without-client}). */
    ClientWatch NONE = clientGone -> {
    };

    /**
     * Starts watching, without blocking; once the client is gone, calls {@code clientGone} (once) with
     * a short reason for the server's one log line.
     */
    void start(Consumer<String> clientGone);
}
