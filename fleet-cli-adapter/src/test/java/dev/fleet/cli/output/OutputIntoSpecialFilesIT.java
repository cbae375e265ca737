package dev.fleet.cli.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.cli.exit.ExitCodes;
import dev.fleet.cli.testing.FleetJar;
import dev.fleet.testing.Patience;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fleet assess --output FILE} where FILE is no regular file, through the real jar: it is never
 * replaced by one. A character device or a FIFO takes the answer as a stream; a block device or a
 * socket is refused in one line, exit 74.
 *
 * <p>Never the host's own {@code /dev/null} or {@code /dev/full}: these tests run as root, where the
 * defect they guard against renames a regular file over {@code /dev/null}. Each device here is a
 * node of the same numbers made in the test's own directory (skipped where {@code mknod} is not allowed).
 */
class OutputIntoSpecialFilesIT {

    @Test
    void aCharacterDeviceTakesTheAnswerAndStaysADevice(@TempDir Path dir) throws Exception {
        Path registry = migrated(dir);
        Path devNull = characterDevice(dir, "null", 3);
        FleetJar.Run run = assess(registry, devNull);
        assertEquals(1, run.exitCode(), run.stderr());
        assertEquals("", run.stderr());
        assertEquals("", run.stdout());
        assertEquals("character device", kind(devNull));
    }

    /**
     * {@code --output "$FLEET_REGISTRY"}, one typo away: the answer would replace the registry it was read from
     * (every member's row gone, every later look {@code corrupt}), or the roster. Refused in one line, exit 2,
     * before anything is assessed; both files keep every byte.
     */
    @Test
    void theRegistryOrRosterAnAnswerIsReadFromIsNeverItsOutput(@TempDir Path dir) throws Exception {
        Path registry = migrated(dir);
        Path roster = dir.resolve("roster.json");
        Files.writeString(roster, "{\"fleet_id\":\"odd\",\"members\":[{\"namespace\":\"gitea-author\","
                + "\"profile\":\"prgs-author\",\"role\":\"author\"}]}\n");
        byte[] registryBytes = Files.readAllBytes(registry);
        byte[] rosterBytes = Files.readAllBytes(roster);
        Path throughALink = Files.createSymbolicLink(dir.resolve("link"), registry);

        for (Path output : List.of(registry, throughALink, roster)) {
            FleetJar.Run run = FleetJar.run("assess", "--output", output.toString(), "--registry",
                    registry.toString(), "--roster", roster.toString());
            String what = output.equals(roster) ? "roster" : "registry file";
            assertEquals(ExitCodes.USAGE, run.exitCode(), run.stderr());
            assertEquals("fleet: --output " + output + " is the " + what + " this answer is read from: the answer "
                    + "would replace it\n", run.stderr());
        }
        assertTrue(java.util.Arrays.equals(registryBytes, Files.readAllBytes(registry)), "the registry is untouched");
        assertTrue(java.util.Arrays.equals(rosterBytes, Files.readAllBytes(roster)), "the roster is untouched");
    }

    /**
     * The registry's {@code -wal} (or {@code -journal}) beside it, one tab completion away from the registry's name:
     * it holds what a live server committed and no checkpoint has copied yet, and the answer replacing it lost
     * those rows. Refused as the registry itself is; the log keeps every byte.
     */
    @Test
    void theRegistrysLogBesideItIsNeverAnOutput(@TempDir Path dir) throws Exception {
        Path registry = migrated(dir);
        for (String suffix : List.of("-wal", "-journal")) {
            Path log = Path.of(registry + suffix);
            Files.write(log, new byte[] {1, 2, 3});
            FleetJar.Run run = FleetJar.run("assess", "--output", log.toString(), "--registry", registry.toString());
            assertEquals(ExitCodes.USAGE, run.exitCode(), run.stderr());
            assertEquals("fleet: --output " + log + " is the registry file's " + suffix + " log this answer is read "
                    + "from: the answer would replace it\n", run.stderr());
            assertTrue(java.util.Arrays.equals(new byte[] {1, 2, 3}, Files.readAllBytes(log)), "the log is untouched");
            Files.delete(log);
        }
    }

    @Test
    void aFullDeviceIsExit74InOneLineAndStaysADevice(@TempDir Path dir) throws Exception {
        Path registry = migrated(dir);
        Path devFull = characterDevice(dir, "full", 7);
        FleetJar.Run run = assess(registry, devFull);
        assertEquals(ExitCodes.OUTPUT_FAILED, run.exitCode(), run.stderr());
        assertEquals("fleet: cannot write " + devFull + " (No space left on device)\n", run.stderr());
        assertEquals("character device", kind(devFull));
    }

    @Test
    void aFifoWithAReaderReceivesTheAnswerAndStaysAFifo(@TempDir Path dir) throws Exception {
        Path registry = migrated(dir);
        Path fifo = fifo(dir);
        Path received = dir.resolve("received.prom");
        Process reader = new ProcessBuilder("cat", fifo.toString()).redirectOutput(received.toFile()).start();
        try {
            FleetJar.Run run = assess(registry, fifo);
            assertEquals(1, run.exitCode(), run.stderr());
            assertEquals("", run.stderr());
            assertTrue(reader.waitFor(Patience.scaled(Duration.ofSeconds(10)).toMillis(), TimeUnit.MILLISECONDS),
                    "the reader saw no end of the answer");
        } finally {
            reader.destroyForcibly();
        }
        String answer = Files.readString(received);
        assertTrue(answer.startsWith("# HELP fleet_") && answer.contains("fleet_registry_readable 1.0"), answer);
        assertEquals("FIFO", kind(fifo));
    }

    /** Not a hang: the run is bounded by {@link FleetJar}, which fails the test when it outlives its limit. */
    @Test
    void aFifoWithNoReaderIsExit74InOneLineNotAHang(@TempDir Path dir) throws Exception {
        Path registry = migrated(dir);
        Path fifo = fifo(dir);
        FleetJar.Run run = assess(registry, fifo);
        assertEquals(ExitCodes.OUTPUT_FAILED, run.exitCode(), run.stderr());
        assertEquals(1, run.stderrLines().size(), run.stderr());
        assertTrue(run.stderr().startsWith("fleet: cannot write " + fifo + ": no reader took the answer within "),
                run.stderr());
        assertEquals("FIFO", kind(fifo));
    }

    @Test
    void aSocketIsRefusedInOneLineAndStaysASocket(@TempDir Path dir) throws Exception {
        Path registry = migrated(dir);
        Path socket = dir.resolve("fleet.sock");
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(socket));
            assertRefused(registry, socket, "socket");
        }
    }

    /** Of a major number no driver holds here: even a write into it would reach no disk. */
    @Test
    void aBlockDeviceIsRefusedInOneLineAndStaysADevice(@TempDir Path dir) throws Exception {
        Path registry = migrated(dir);
        Path block = mknod(dir.resolve("disk"), "b", unusedBlockMajor(), 0);
        assertRefused(registry, block, "block device");
    }

    /** {@code assess --output target} is exit 74 and one line naming what {@code target} is, which stays one. */
    private static void assertRefused(Path registry, Path target, String kind) throws Exception {
        FleetJar.Run run = assess(registry, target);
        assertEquals(ExitCodes.OUTPUT_FAILED, run.exitCode(), run.stderr());
        assertEquals("fleet: cannot write " + target + ": it is a " + kind + "; only a regular file is replaced, "
                + "and only a character device or a FIFO is written into\n", run.stderr());
        assertEquals(kind, kind(target));
    }

    /** As {@code --output /dev/stdout} is: the link is followed to the device, and both stay as they were. */
    @Test
    void aLinkToADeviceWritesIntoTheDeviceAndStaysALink(@TempDir Path dir) throws Exception {
        Path registry = migrated(dir);
        Path devNull = characterDevice(dir, "null", 3);
        Path link = Files.createSymbolicLink(dir.resolve("fleet.prom"), devNull);
        FleetJar.Run run = assess(registry, link);
        assertEquals(1, run.exitCode(), run.stderr());
        assertEquals("", run.stderr());
        assertEquals("symbolic link", kind(link));
        assertEquals(devNull, Files.readSymbolicLink(link));
        assertEquals("character device", kind(devNull));
    }

    /** Kept as it was: a rename replaces the link itself, and never writes through it into another file. */
    @Test
    void aLinkToARegularFileIsReplacedAndWhatItNamedIsLeftAlone(@TempDir Path dir) throws Exception {
        Path registry = migrated(dir);
        Path elsewhere = Files.writeString(dir.resolve("elsewhere.prom"), "# not fleet's\n");
        Path link = Files.createSymbolicLink(dir.resolve("fleet.prom"), elsewhere);
        FleetJar.Run run = assess(registry, link);
        assertEquals(1, run.exitCode(), run.stderr());
        assertEquals("regular file", kind(link));
        assertTrue(Files.readString(link).startsWith("# HELP fleet_"));
        assertEquals("# not fleet's\n", Files.readString(elsewhere));
    }

    /**
     * As {@code --output /dev/stdout > file} and {@code >> file}: a link into {@code /proc/self/fd} names a
     * descriptor of the process's own, here open on a regular file (or closed): refused in one line, exit 74,
     * the link and the file as they were. It used to be renamed over, as any link to a regular file: as
     * root, that put a file where the host's {@code /dev/stdout} was, and the file the shell opened stayed
     * empty. (A link of the test's own, never the host's.)
     */
    @Test
    void aLinkToTheProcesssOwnStdoutOnAFileIsRefusedAndStaysALink(@TempDir Path dir) throws Exception {
        Path registry = migrated(dir);
        Path stdout = Files.createSymbolicLink(dir.resolve("stdout"), Path.of("/proc/self/fd/1"));
        Path captured = Files.writeString(dir.resolve("captured.prom"), "# before\n");
        String refusal = "fleet: cannot write " + stdout + ": it names a file descriptor of this process's own, not "
                + "a file to replace (without --output, the answer goes to stdout)";

        for (ProcessBuilder.Redirect into : List.of(ProcessBuilder.Redirect.appendTo(captured.toFile()),
                ProcessBuilder.Redirect.to(captured.toFile()))) {
            Process process = assessInto(registry, stdout, into);
            assertEquals(ExitCodes.OUTPUT_FAILED, process.exitValue(), Files.readString(dir.resolve("stderr.txt")));
            assertEquals(List.of(refusal), Files.readAllLines(dir.resolve("stderr.txt")));
            assertEquals(Path.of("/proc/self/fd/1"), Files.readSymbolicLink(stdout), "the link stays a link");
        }
        assertEquals("", Files.readString(captured), "nothing but what the shell's > did to it");

        Process closed = new ProcessBuilder(List.of("bash", "-c", "exec \"$@\" >&-", "fleet",
                FleetJar.javaBinary(), "-jar", FleetJar.JAR.toString(), "assess", "--format", "prometheus", "--output",
                stdout.toString(), "--registry", registry.toString()))
                .redirectError(dir.resolve("stderr.txt").toFile()).start();
        assertTrue(closed.waitFor(Patience.scaled(Duration.ofSeconds(60)).toMillis(), TimeUnit.MILLISECONDS));
        String said = Files.readString(dir.resolve("stderr.txt"));
        assertEquals(ExitCodes.OUTPUT_FAILED, closed.exitValue(), said);
        assertEquals(1, said.lines().count(), said);
        assertTrue(said.startsWith("fleet: cannot write " + stdout + ": "), said);
        assertEquals(Path.of("/proc/self/fd/1"), Files.readSymbolicLink(stdout), "the link stays a link");
    }

    private static Process assessInto(Path registry, Path output, ProcessBuilder.Redirect stdout) throws Exception {
        Path stderr = output.resolveSibling("stderr.txt");
        Process process = new ProcessBuilder(List.of(FleetJar.javaBinary(), "-jar", FleetJar.JAR.toString(), "assess",
                "--format", "prometheus", "--output", output.toString(), "--registry", registry.toString()))
                .redirectOutput(stdout).redirectError(stderr.toFile()).start();
        assertTrue(process.waitFor(Patience.scaled(Duration.ofSeconds(60)).toMillis(), TimeUnit.MILLISECONDS));
        return process;
    }

    private static FleetJar.Run assess(Path registry, Path output) {
        return FleetJar.run("assess", "--format", "prometheus", "--output", output.toString(),
                "--registry", registry.toString());
    }

    private static Path migrated(Path dir) {
        Path registry = dir.resolve("control_plane.sqlite3");
        FleetJar.Run migrate = FleetJar.run("registry", "migrate", "--registry", registry.toString());
        assertEquals(0, migrate.exitCode(), migrate.stderr());
        return registry;
    }

    /** A node of the memory devices' major 1 ({@code minor} 3 is null, 7 is full), usable or skipped. */
    private static Path characterDevice(Path dir, String name, int minor) throws Exception {
        Path device = mknod(dir.resolve(name), "c", 1, minor);
        try (FileChannel probe = FileChannel.open(device, StandardOpenOption.WRITE)) {
            return device;
        } catch (IOException e) {
            Assumptions.abort("a device node made in " + dir + " cannot be opened (a nodev mount?): " + e);
            throw e;
        }
    }

    private static Path mknod(Path node, String type, int major, int minor) throws Exception {
        if (run("mknod", node.toString(), type, Integer.toString(major), Integer.toString(minor)) != 0) {
            Assumptions.abort("mknod is not allowed here (not root, or no CAP_MKNOD): skipped, never the host's "
                    + "own devices instead");
        }
        return node;
    }

    private static Path fifo(Path dir) throws Exception {
        Path fifo = dir.resolve("fleet.prom");
        assertEquals(0, run("mkfifo", fifo.toString()));
        return fifo;
    }

    /** A major in the range left for local use (240 to 254) that /proc/devices lists no block driver for. */
    private static int unusedBlockMajor() throws IOException {
        // Aborted, never guessed, where every one is taken: a node of a live disk is no test's to make.
        List<String> lines = Files.readAllLines(Path.of("/proc/devices"));
        Set<Integer> used = lines.subList(lines.indexOf("Block devices:") + 1, lines.size()).stream()
                .map(String::strip).filter(line -> !line.isEmpty())
                .map(line -> Integer.parseInt(line.split("\\s+")[0])).collect(Collectors.toSet());
        return IntStream.rangeClosed(240, 254).filter(major -> !used.contains(major)).findFirst()
                .orElseGet(() -> {
                    Assumptions.abort("every local block major (240 to 254) is in use here: " + used);
                    return -1;
                });
    }

    private static int run(String... command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(process.waitFor(Patience.scaled(Duration.ofSeconds(10)).toMillis(), TimeUnit.MILLISECONDS),
                String.join(" ", command) + " did not finish");
        return process.exitValue();
    }

    /** What the name itself is, a link not followed: as {@code stat -c %F} says it. */
    private static String kind(Path path) throws IOException {
        if (Files.isSymbolicLink(path)) {
            return "symbolic link";
        }
        int type = (Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 0170000;
        return switch (type) {
            case 0100000 -> "regular file";
            case 0020000 -> "character device";
            case 0060000 -> "block device";
            case 0010000 -> "FIFO";
            case 0140000 -> "socket";
            default -> "mode " + Integer.toOctalString(type);
        };
    }
}
