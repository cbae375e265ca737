package dev.fleet.cli.assess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.cli.exit.ExitCodes;
import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.testing.Patience;
import dev.fleet.testing.Promtool;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code fleet assess --format prometheus|openmetrics [--output FILE]}, through the real jar. */
class AssessMetricsIT {

    private static final String HOSTILE_MEMBER = "{\"namespace\": \"gitea-author\", "
            + "\"profile\": \"prgs-\\\"author\\\"\\\\n\\\\\\nsecond line\", \"role\": \"author\"}";
    /** How the writers escape that profile: quotes, backslashes and the newline each escaped. */
    private static final String HOSTILE_ESCAPED = "profile=\"prgs-\\\"author\\\"\\\\n\\\\\\nsecond line\"";

    @Test
    void bothFormatsPassPromtoolForABlockedFleetAndAHostileRoster(@TempDir Path dir) throws Exception {
        Path promtool = Promtool.require();
        Path registry = migrated(dir);
        Path hostile = TestFleets.roster(registry, HOSTILE_MEMBER, "hostile.json");
        for (String format : List.of("prometheus", "openmetrics")) {
            for (List<String> fleet : List.of(List.of("--registry", registry.toString()),
                    List.of("--registry", dir.resolve("missing.sqlite3").toString()),
                    List.of("--registry", registry.toString(), "--roster", hostile.toString()))) {
                List<String> args = Stream.concat(Stream.of("assess", "--format", format), fleet.stream()).toList();
                FleetJar.Run run = FleetJar.run(args.toArray(String[]::new));
                assertEquals(1, run.exitCode(), "a fleet with no member is blocked: " + run.stderr());
                assertEquals("", run.stderr());
                Promtool.Check check = Promtool.checkMetrics(promtool, run.stdout().getBytes(StandardCharsets.UTF_8));
                assertTrue(check.clean(), args + ": promtool exited " + check.status() + ": " + check.output()
                        + "\n" + run.stdout());
                assertEquals(format.equals("openmetrics"), run.stdout().endsWith("# EOF\n"), run.stdout());
                assertTrue(run.stdout().contains("fleet_mutation_gate_satisfied 0.0"), run.stdout());
                assertTrue(run.stdout().contains("fleet_blocked{code=\"missing_member\"}"), run.stdout());
                // The host's strays beside the fleet's, a series for every client kind and stray state.
                assertTrue(run.stdout().contains("fleet_host_strays{client=\"claude-code\",state=\"stale_generation\"} "),
                        run.stdout());
                if (fleet.contains(hostile.toString())) {
                    assertTrue(run.stdout().contains(HOSTILE_ESCAPED), run.stdout());
                }
            }
        }
    }

    @Test
    void outputReplacesTheFileWholeAndReadableByTheCollector(@TempDir Path dir) throws Exception {
        Path registry = migrated(dir);
        Path textfiles = Files.createDirectory(dir.resolve("textfile"));
        Path file = Files.writeString(textfiles.resolve("fleet.prom"), "# the previous scrape\n");
        FleetJar.Run run = FleetJar.run("assess", "--format", "prometheus", "--output", file.toString(),
                "--registry", registry.toString());
        assertEquals(1, run.exitCode(), run.stderr());
        assertEquals("", run.stdout(), "the answer goes to the file, not to stdout");
        assertEquals("", run.stderr());
        String written = Files.readString(file);
        assertTrue(written.startsWith("# HELP fleet_"), written);
        assertTrue(written.contains("fleet_registry_readable 1.0"), written);
        assertEquals(List.of(file), list(textfiles), "no temporary file is left beside it");

        Path fresh = textfiles.resolve("fresh.prom");
        assertEquals(1, FleetJar.run("assess", "--format", "openmetrics", "--output", fresh.toString(),
                "--registry", registry.toString()).exitCode());
        assertTrue(Files.readString(fresh).endsWith("# EOF\n"));
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(fresh)),
                "node_exporter may run as another user");
    }

    /**
     * {@code --output link/../fleet.prom} is the file a shell's {@code >} writes: beside the link's target, where
     * the kernel resolves {@code ..}. A lexical normalize() dropped {@code link/..} and wrote a file in the
     * link's own folder, where no collector looks (and the previous scrape stayed).
     */
    @Test
    void outputThroughALinkAndDotDotIsTheFileTheKernelNames(@TempDir Path dir) throws Exception {
        Path registry = migrated(dir);
        Path textfiles = Files.createDirectories(dir.resolve("collector/textfile"));
        Path link = Files.createSymbolicLink(dir.resolve("latest"), textfiles);
        Path file = Files.writeString(dir.resolve("collector/fleet.prom"), "# the previous scrape\n");
        FleetJar.Run run = FleetJar.run("assess", "--format", "prometheus", "--output",
                link + "/../fleet.prom", "--registry", registry.toString());
        assertEquals(1, run.exitCode(), run.stderr());
        assertEquals("", run.stderr());
        assertTrue(Files.readString(file).contains("fleet_registry_readable 1.0"), "the named file is replaced");
        assertFalse(Files.exists(dir.resolve("fleet.prom")), "nothing is written where the link lies");
    }

    /** So is {@code --registry link/../r.sqlite3}: the registry a shell's {@code sqlite3} opens, for every verb. */
    @Test
    void aRegistryThroughALinkAndDotDotIsTheFileTheKernelNames(@TempDir Path dir) throws Exception {
        Path link = Files.createSymbolicLink(dir.resolve("latest"), Files.createDirectories(dir.resolve("state/now")));
        FleetJar.Run migrate = FleetJar.run("registry", "migrate", "--registry", link + "/../r.sqlite3");
        assertEquals(0, migrate.exitCode(), migrate.stderr());
        assertTrue(Files.exists(dir.resolve("state/r.sqlite3")), "migrated where the kernel resolves the path");
        assertFalse(Files.exists(dir.resolve("r.sqlite3")), "nothing is made where the link lies");
        FleetJar.Run fromEnvironment = FleetJar.run(Map.of("FLEET_REGISTRY", link + "/../e.sqlite3"), "registry",
                "migrate");
        assertEquals(0, fromEnvironment.exitCode(), fromEnvironment.stderr());
        assertTrue(Files.exists(dir.resolve("state/e.sqlite3")), "FLEET_REGISTRY too: " + fromEnvironment.stdout());
    }

    @Test
    void aReadOnlyDirectoryIsOneClearErrorAndTheOldFileStays(@TempDir Path dir) throws Exception {
        Path registry = migrated(dir);
        Path textfiles = Files.createDirectory(dir.resolve("textfile"));
        Path file = Files.writeString(textfiles.resolve("fleet.prom"), "# the previous scrape\n");
        try (ReadOnlyDirectory readOnly = ReadOnlyDirectory.of(textfiles)) {
            FleetJar.Run run = FleetJar.run("assess", "--format", "prometheus", "--output", file.toString(),
                    "--registry", registry.toString());
            assertEquals(ExitCodes.OUTPUT_FAILED, run.exitCode(), run.stderr());
            assertEquals(1, run.stderrLines().size(), run.stderr());
            assertTrue(run.stderr().startsWith("fleet: cannot write " + file + ": cannot create a file in "
                    + textfiles), run.stderr());
            assertTrue(run.stderr().contains("the old file, if any, is unchanged"), run.stderr());
        }
        assertEquals("# the previous scrape\n", Files.readString(file));
        assertEquals(List.of(file), list(textfiles));
    }

    /** A write cut short (here by a file-size limit, as a full disk would) leaves the old file and no part. */
    @Test
    void aWriteThatFailsHalfwayLeavesNoPartialFile(@TempDir Path dir) throws Exception {
        Path registry = migrated(dir);
        Path file = Files.writeString(dir.resolve("fleet.prom"), "# the previous scrape\n");
        ProcessBuilder builder = new ProcessBuilder("bash", "-c", "ulimit -f 2 && exec \"$0\" -XX:-UsePerfData -jar "
                + "\"$1\" assess --format prometheus --output \"$2\" --registry \"$3\"", FleetJar.javaBinary(),
                FleetJar.JAR.toString(), file.toString(), registry.toString());
        // The SQLite library's cache was filled by the migration above: only the answer meets the limit.
        TestFleets.isolate(builder.environment());
        Path err = dir.resolve("stderr.txt");
        builder.redirectErrorStream(false).redirectOutput(dir.resolve("stdout.txt").toFile())
                .redirectError(err.toFile());
        Process process = builder.start();
        assertTrue(process.waitFor(Patience.scaled(Duration.ofSeconds(60)).toMillis(), TimeUnit.MILLISECONDS),
                "assess did not finish");
        String stderr = Files.readString(err);
        assertEquals(ExitCodes.OUTPUT_FAILED, process.exitValue(), stderr);
        assertTrue(stderr.contains("fleet: cannot write " + file + " (File too large); the old file, if any, is "
                + "unchanged"), stderr);
        assertEquals("# the previous scrape\n", Files.readString(file));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(), files.filter(path -> path.getFileName().toString().endsWith(".tmp")).toList());
        }
    }

    /** The Prometheus client is loaded for the metrics formats only: text and JSON start as they did. */
    @Test
    void textAndJsonLoadNoPrometheusClass(@TempDir Path dir) throws Exception {
        Path registry = migrated(dir);
        for (String format : List.of("json", "text", "prometheus")) {
            Path log = dir.resolve(format + ".classes");
            FleetJar.Run run = FleetJar.run(Duration.ofSeconds(60), List.of("-Xshare:off",
                    "-Xlog:class+load=info:file=" + log), Map.of(), "assess", "--format", format,
                    "--registry", registry.toString());
            assertEquals(1, run.exitCode(), run.stderr());
            String loaded = Files.readString(log);
            boolean metrics = format.equals("prometheus");
            assertEquals(metrics, loaded.contains("io.prometheus.metrics."), format);
            assertEquals(metrics, loaded.contains("dev.fleet.metrics."), format);
        }
    }

    @Test
    void anUnknownFormatIsAUsageError() {
        FleetJar.Run run = FleetJar.run("assess", "--format", "influx");
        assertEquals(ExitCodes.USAGE, run.exitCode());
        assertEquals(1, run.stderrLines().size(), run.stderr());
        assertFalse(run.stderr().contains("Exception"), run.stderr());
    }

    private static Path migrated(Path dir) {
        Path registry = dir.resolve("control_plane.sqlite3");
        FleetJar.Run migrate = FleetJar.run("registry", "migrate", "--registry", registry.toString());
        assertEquals(0, migrate.exitCode(), migrate.stderr());
        return registry;
    }

    private static List<Path> list(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.sorted().toList();
        }
    }

    /**
     * A directory no one can write into: mode 555, and for root (whom modes do not stop) the
     * immutable attribute as well. Skipped only where neither holds (root on a file system without it).
     */
    private record ReadOnlyDirectory(Path dir, boolean immutable) implements AutoCloseable {

        static ReadOnlyDirectory of(Path dir) throws IOException, InterruptedException {
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("r-xr-xr-x"));
            boolean immutable = !writable(dir) ? false : chattr("+i", dir);
            ReadOnlyDirectory readOnly = new ReadOnlyDirectory(dir, immutable);
            if (writable(dir)) {
                readOnly.close();
                Assumptions.abort("cannot make " + dir + " read-only for this user (root without chattr +i)");
            }
            return readOnly;
        }

        private static boolean writable(Path dir) {
            try {
                Files.delete(Files.createTempFile(dir, "probe", ".tmp"));
                return true;
            } catch (IOException e) {
                return false;
            }
        }

        /** Whether {@code chattr flag dir} worked; false where there is no chattr. */
        private static boolean chattr(String flag, Path dir) throws InterruptedException {
            Process chattr;
            try {
                chattr = new ProcessBuilder("chattr", flag, dir.toString()).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            } catch (IOException none) {
                return false;
            }
            return chattr.waitFor(Patience.scaled(Duration.ofSeconds(10)).toMillis(), TimeUnit.MILLISECONDS)
                    && chattr.exitValue() == 0;
        }

        @Override
        public void close() throws IOException {
            try {
                if (immutable) {
                    chattr("-i", dir);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }
}
