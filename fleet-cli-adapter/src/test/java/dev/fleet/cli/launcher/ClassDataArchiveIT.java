package dev.fleet.cli.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.cli.testing.FleetJar;
import dev.fleet.registry.sqlite.SqliteRegistryReader;
import dev.fleet.testing.Patience;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The package step's class-data archive, trained on a {@code serve} and passed by ./fleet to every verb:
 * a verb maps picocli from it instead of parsing it, and the members of a fleet share its pages.
 */
class ClassDataArchiveIT {

    @TempDir
    Path dir;

    @Test
    void aVerbRunWithTheArchiveMapsPicocliFromIt() throws Exception {
        Path archive = FleetJar.ARCHIVE;
        assertTrue(Files.isRegularFile(archive), "the package step writes " + archive);
        Path classLog = dir.resolve("classes.log");

        FleetJar.Run run = FleetJar.run(Duration.ofSeconds(120), List.of("-XX:SharedArchiveFile=" + archive,
                "-Xshare:auto", "-Xlog:class+load=info:file=" + classLog), Map.of(), "--version");

        assertEquals(0, run.exitCode(), run.stderr());
        FleetJar.assertMappedFromTheArchive(classLog, "picocli.CommandLine");
    }

    /**
     * Why there is an archive at all: the members of a fleet map its pages from one file and share
     * them, rather than each parsing the same classes into memory of its own (the budget for five
     * idle members in docs/PERFORMANCE.md). Two members started as an MCP client starts them: ./fleet.
     */
    @Test
    void membersStartedThroughTheLauncherShareTheArchivesPages() throws Exception {
        Path registry = dir.resolve("r.sqlite3");
        List<Process> members = new ArrayList<>();
        try {
            for (String profile : List.of("prgs-author", "prgs-merger")) {
                members.add(Launcher.launcher(Launcher.PATH, "serve", "--profile", profile, "--registry",
                        registry.toString()).redirectError(dir.resolve(profile + ".stderr").toFile())
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start());
            }
            long deadline = System.nanoTime() + Patience.scaled(Duration.ofSeconds(60)).toNanos();
            while (registeredRows(registry) < members.size()) {
                assertTrue(System.nanoTime() < deadline, "both members registered");
                assertTrue(members.stream().allMatch(Process::isAlive), "a member ended early; see " + dir);
                Thread.sleep(50);
            }
            // Mapped where it was written, its read-only part stays read-only: its pages are the file's, one
            // copy for every member. (Relocated, all of it would be mapped writable, patched, each member's own.)
            for (Process member : members) {
                Map<String, Long> readOnly = readOnlyArchivePages(member.pid());
                assertTrue(readOnly.getOrDefault("Rss", 0L) > 0, member.pid() + " maps the archive read-only");
                // Clean or dirty as the file's pages are: one the build has just written may not be on disk yet.
                assertTrue(readOnly.get("Shared_Clean") + readOnly.get("Shared_Dirty") > 0,
                        "shared with the other member: " + readOnly);
            }
        } finally {
            for (Process member : members) {
                member.getOutputStream().close(); // stdin's end: a member's normal stop
            }
            for (Process member : members) {
                assertTrue(member.waitFor(Patience.scaled(Duration.ofSeconds(30)).toMillis(), TimeUnit.MILLISECONDS));
            }
        }
    }

    private static int registeredRows(Path registry) {
        return Files.exists(registry) ? new SqliteRegistryReader(registry).readAll().rows().size() : 0;
    }

    /** The kB fields of /proc/PID/smaps (Rss, Shared_Clean, ...) summed over the archive's read-only mappings. */
    private static Map<String, Long> readOnlyArchivePages(long pid) throws Exception {
        Map<String, Long> fields = new HashMap<>();
        String archive = " " + FleetJar.ARCHIVE.toRealPath();
        boolean inArchive = false;
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "smaps"))) {
            if (line.matches("[0-9a-f]+-[0-9a-f]+ .*")) {
                inArchive = line.endsWith(archive) && line.split(" ")[1].equals("r--p");
            } else if (inArchive && line.endsWith(" kB")) {
                String[] parts = line.split("\\s+");
                fields.merge(parts[0].replace(":", ""), Long.parseLong(parts[1]), Long::sum);
            }
        }
        return fields;
    }
}
