package dev.fleet.cli.serve;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The wrapped servers of the shutdown tests, from easy to hard to end: {@code src/test/python/shutdown_child.py},
 * a minimal MCP server on python3's standard library, in one of three modes. Each copy writes the pids of
 * its tree to a file in a directory the test names ({@link #trees}), so the test can look each of them up
 * in {@code /proc} once the client is done.
 */
enum ShutdownChild {

    /** Exits once its stdin ends. */
    EXITS_ON_EOF("exits-on-eof"),
    /** Ignores its stdin's end and SIGTERM: only SIGKILL ends it. */
    IGNORES_EOF_AND_SIGTERM("ignores-eof-and-term"),
    /**
     * As {@link #IGNORES_EOF_AND_SIGTERM}, with a grandchild in a process group of its own and a daemon
     * (fork, setsid, fork: its parent is gone at once, so it is nobody's descendant but a subreaper's),
     * both ignoring SIGTERM too.
     */
    LEAVES_A_GRANDCHILD_AND_A_DAEMON("leaves-daemons");

    static final Path SCRIPT = Path.of("src/test/python/shutdown_child.py").toAbsolutePath();

    private final String mode;

    ShutdownChild(String mode) {
        this.mode = mode;
    }

    /** One process of a child's tree: its role ({@code child}, {@code grandchild}, {@code daemon}) and pid. */
    record TreeProcess(String role, long pid) {
    }

    /** The command line of a copy that writes its tree's pids into {@code pids}. */
    List<String> command(Path pids) {
        return List.of("python3", SCRIPT.toString(), mode, pids.toString());
    }

    /** Every process of every copy's tree that wrote to {@code pids}, as written (copies still starting are not). */
    static List<List<TreeProcess>> trees(Path pids) {
        try (Stream<Path> files = Files.list(pids)) {
            return files.filter(file -> file.getFileName().toString().matches("tree-\\d+")).sorted()
                    .map(ShutdownChild::read).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<TreeProcess> read(Path tree) {
        try {
            return Files.readAllLines(tree).stream().map(line -> line.split(" "))
                    .map(fields -> new TreeProcess(fields[0], Long.parseLong(fields[1]))).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
