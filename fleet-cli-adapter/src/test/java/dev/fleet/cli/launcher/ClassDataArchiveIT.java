package dev.fleet.cli.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.cli.testing.FleetJar;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The package step's class-data archive for the one-shot verbs: a cold verb maps picocli from it
 * instead of parsing it (docs/PERFORMANCE.md, "Cold start"), and verifies none of it, since
 * fleet-picocli compiles picocli for Java 17 and the archive holds it verified (eighth round). Its
 * training reads a roster file, so an assessment of a fleet of one's own maps Jackson too
 * (docs/PERFORMANCE.md, seventh round).
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

    @Test
    void aVerbRunWithTheArchiveVerifiesNoneOfPicocliAtStart() throws Exception {
        Path initLog = dir.resolve("init.log");

        FleetJar.Run run = FleetJar.run(Duration.ofSeconds(120), List.of("-XX:SharedArchiveFile=" + FleetJar.ARCHIVE,
                "-Xshare:auto", "-Xlog:class+init=info:file=" + initLog), Map.of(),
                "assess", "--format", "json", "--registry", dir.resolve("absent.sqlite3").toString());

        assertEquals(1, run.exitCode(), run.stderr()); // a missing registry: not satisfied
        List<String> lines = Files.readAllLines(initLog);
        assertTrue(lines.stream().anyMatch(line -> line.contains("Initializing 'picocli/CommandLine'")),
                "the log records picocli's initialisation: " + lines.size() + " lines");
        // picocli's own jar holds Java 5 class files, which an archive keeps unverified: 137 of them were
        // verified at every start.
        List<String> verified = lines.stream()
                .filter(line -> line.contains("Start class verification for: picocli.")).toList();
        assertEquals(List.of(), verified, "verified at start rather than in the archive");
    }

    @Test
    void anAssessmentWithARosterFileMapsTheRosterReaderAndJacksonFromIt() throws Exception {
        Path archive = FleetJar.ARCHIVE;
        Path classLog = dir.resolve("classes.log");
        Path roster = dir.resolve("roster.json");
        Files.writeString(roster, """
                {"binding": {"remote": "r", "org": "o", "repo": "x"},
                 "members": [{"namespace": "n", "profile": "p", "role": "author"}],
                 "server_process_patterns": ["fleet\\\\.jar serve .*--roster-of-this-test"]}
                """);

        FleetJar.Run run = FleetJar.run(Duration.ofSeconds(120), List.of("-XX:SharedArchiveFile=" + archive,
                "-Xshare:auto", "-Xlog:class+load=info:file=" + classLog), Map.of(),
                "assess", "--format", "json", "--roster", roster.toString(),
                "--registry", dir.resolve("absent.sqlite3").toString());

        assertEquals(1, run.exitCode(), run.stderr()); // a missing registry: not satisfied
        for (String name : List.of("dev.fleet.cli.option.RosterFile", "com.fasterxml.jackson.databind.ObjectMapper",
                "com.fasterxml.jackson.databind.node.ObjectNode")) {
            FleetJar.assertMappedFromTheArchive(classLog, name);
        }
    }
}
