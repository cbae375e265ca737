package dev.fleet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The package step's class-data archive for the one-shot verbs is a static one, because JDK 17
 * archives picocli's Java 5 class files only there: a cold verb then maps picocli instead of
 * parsing and verifying it (docs/PERFORMANCE.md, "Cold start").
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
        List<String> picocli = Files.readAllLines(classLog).stream()
                .filter(line -> line.contains(" picocli.CommandLine ")).toList();
        assertEquals(1, picocli.size(), "picocli.CommandLine loaded once: " + picocli);
        assertTrue(picocli.get(0).contains("source: shared objects file"), picocli.get(0));
    }
}
