package dev.fleet.mcp.stdio;

import java.io.IOException;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This process's stdin as its parent left it. A parent that closed descriptor 0 before it started the server
 * ({@code fleet serve <&-}) leaves that number free, and the JVM's first open takes it: HotSpot's
 * {@code lib/modules}, some hundred megabytes of class data, which a stdio server read as its client's lines,
 * writing a parse error to stdout for each, hundreds of thousands of them, and serving on until the file ended.
 * A closed stdin is no client: it reads as an empty one, whose end stops the server at once, as stdin EOF does.
 */
public final class InheritedStdin {

    private static final Logger LOG = LoggerFactory.getLogger(InheritedStdin.class);

    /** Where Linux shows what descriptor 0 is. */
    static final Path DESCRIPTOR = Path.of("/proc/self/fd/0");

    private InheritedStdin() {
    }

    /**
     * Whether stdin was closed when this process started: descriptor 0 is then a file of the running JVM's own,
     * which no client wrote and which is not this program's to read or to close; said once on stderr, naming
     * {@code what} started (a server, a member that wraps one).
     */
    public static boolean closedAtStart(String what) {
        boolean closed = theJvmsOwn(DESCRIPTOR, Path.of(System.getProperty("java.home")));
        if (closed) {
            LOG.warn("stdin was closed when this {} started (descriptor 0 is one of the JVM's own files, no client's): "
                    + "reading it as empty", what);
        }
        return closed;
    }

    /**
     * Whether {@code descriptor} names a file under {@code javaHome}: one the JVM opened for itself in the place of
     * a stdin that was closed (no client pipes a JDK's own file to a server). False where it cannot be told (no
     * {@code /proc}, a pipe, a terminal, a socket).
     */
    static boolean theJvmsOwn(Path descriptor, Path javaHome) {
        try {
            return descriptor.toRealPath().startsWith(javaHome.toRealPath());
        } catch (IOException | RuntimeException untold) {
            return false;
        }
    }
}
