package dev.fleet.cli.launcher;

import static dev.fleet.cli.launcher.Launcher.finish;
import static dev.fleet.cli.launcher.Launcher.version;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.cli.testing.DefaultSigint;
import dev.fleet.cli.testing.FleetJar;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code ./fleet} launcher rebuilds a jar older than any of the build's inputs before it runs it,
 * once for many members starting together, with stdout kept for the verb, and runs no out-of-date jar
 * when the build fails or is interrupted. Each test runs a copy of the launcher in a {@link ScratchCheckout}.
 */
class LauncherRebuildIT {

    /**
     * An edit outside the build's inputs, a document, a test source or a benchmark (none is in the jar),
     * does not make every MCP client wait for a build.
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "docs/NOT-AN-INPUT.md",
        "fleet-domain/src/test/java/ATest.java",
        "fleet-benchmarks/pom.xml",
        "fleet-benchmarks/src/main/java/Bench.java",
    })
    void aJarNewerThanEveryInputRunsWithoutABuild(String notAnInput, @TempDir Path dir) throws Exception {
        ScratchCheckout checkout = new ScratchCheckout(dir);
        Files.writeString(dir.resolve(notAnInput), "an edit outside the build's inputs");

        FleetJar.Run run = finish(checkout.start("--version"));

        assertEquals(0, run.exitCode(), run.stderr());
        assertEquals(version(), run.stdout());
        assertEquals("", run.stderr());
        assertEquals(List.of(), checkout.builds());
    }

    @ParameterizedTest
    @ValueSource(strings = {"fleet-domain/src/main/java/A.java", "fleet-domain/pom.xml", "pom.xml",
        ".mvn/wrapper/maven-wrapper.properties"})
    void anInputNewerThanTheJarRebuildsItOnceAndKeepsStdoutClean(String input, @TempDir Path dir) throws Exception {
        ScratchCheckout checkout = new ScratchCheckout(dir);
        Files.writeString(dir.resolve(input), "edited");

        FleetJar.Run first = finish(checkout.start("--version"));
        FleetJar.Run second = finish(checkout.start("--version"));

        assertEquals(0, first.exitCode(), first.stderr());
        assertEquals(version(), first.stdout(), "stdout carries the verb's output only");
        assertTrue(first.stderr().startsWith("fleet: building fleet.jar (" + input
                + " changed after fleet.jar was built)...\n"), first.stderr());
        assertTrue(first.stderr().contains("stand-in maven: this line went to stdout"), first.stderr());
        assertEquals(version(), second.stdout());
        assertEquals("", second.stderr(), "the rebuilt jar is fresh");
        assertEquals(List.of("-q -B -DskipTests -pl fleet-cli-adapter -am package"), checkout.builds());
    }

    @Test
    void aDeletedSourceFileRebuildsTheJar(@TempDir Path dir) throws Exception {
        ScratchCheckout checkout = new ScratchCheckout(dir);
        Files.delete(dir.resolve("fleet-domain/src/main/java/A.java"));

        FleetJar.Run run = finish(checkout.start("--version"));

        assertEquals(0, run.exitCode(), run.stderr());
        assertEquals(version(), run.stdout());
        assertTrue(run.stderr().startsWith("fleet: building fleet.jar (fleet-domain/src/main/java changed after "
                + "fleet.jar was built)"), run.stderr());
        assertEquals(1, checkout.builds().size());
    }

    @Test
    void fiveMembersStartingTogetherWaitForOneBuild(@TempDir Path dir) throws Exception {
        ScratchCheckout checkout = new ScratchCheckout(dir);
        Files.delete(checkout.jar);

        List<Process> members = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            members.add(checkout.start("--version"));
        }
        for (Process member : members) {
            FleetJar.Run run = finish(member);
            assertEquals(0, run.exitCode(), run.stderr());
            assertEquals(version(), run.stdout());
        }
        assertEquals(1, checkout.builds().size(), "one build for five: " + checkout.builds());
    }

    /** A step of its own that fails (here its build lock is a folder) is exit 2 too, bash's line saying which. */
    @Test
    void aLauncherStepThatFailsIsExitTwo(@TempDir Path dir) throws Exception {
        ScratchCheckout checkout = new ScratchCheckout(dir);
        Files.writeString(dir.resolve("fleet-domain/src/main/java/A.java"), "edited");
        Files.createDirectory(dir.resolve("fleet-cli-adapter/target/.launcher-build.lock"));

        FleetJar.Run run = finish(checkout.start("--version"));

        assertEquals(2, run.exitCode(), run.stderr());
        assertEquals("", run.stdout(), "nothing ran");
        assertTrue(run.stderr().contains(".launcher-build.lock: Is a directory"), run.stderr());
    }

    @Test
    void aFailedBuildRunsNoOutOfDateJar(@TempDir Path dir) throws Exception {
        ScratchCheckout checkout = new ScratchCheckout(dir);
        Files.writeString(dir.resolve("fleet-domain/src/main/java/A.java"), "edited");
        Files.writeString(dir.resolve("fail"), "");

        FleetJar.Run run = finish(checkout.start("--version"));

        assertEquals(2, run.exitCode(), "a launcher that ran nothing gives no verb's answer (1): " + run.stderr());
        assertEquals("", run.stdout(), "the old jar did not run");
        assertTrue(run.stderr().endsWith("fleet: the build failed (see above); not running an out-of-date jar\n"),
                run.stderr());
    }

    @Test
    void rebuildsInTheCheckoutWhenStartedFromAnotherDirectoryThroughASymlink(@TempDir Path dir) throws Exception {
        ScratchCheckout checkout = new ScratchCheckout(Files.createDirectory(dir.resolve("checkout")));
        Files.writeString(checkout.root.resolve("fleet-domain/src/main/java/A.java"), "edited");
        Path elsewhere = Files.createDirectory(dir.resolve("elsewhere"));
        Path link = Files.createSymbolicLink(Files.createDirectory(dir.resolve("bin")).resolve("fleet"),
                checkout.launcher);

        FleetJar.Run run = finish(checkout.startIn(elsewhere, link, "--version"));

        assertEquals(0, run.exitCode(), run.stderr());
        assertEquals(version(), run.stdout());
        assertEquals(1, checkout.builds().size(), run.stderr());
    }

    @Test
    void ctrlCDuringTheBuildSaysInterruptedAndExits130(@TempDir Path dir) throws Exception {
        ScratchCheckout checkout = new ScratchCheckout(dir);
        Files.writeString(dir.resolve("fleet-domain/src/main/java/A.java"), "edited");
        Files.writeString(dir.resolve("slow"), "");
        // Its own process group, as a shell gives a foreground job: Ctrl-C signals the whole group. And
        // SIGINT at its default disposition, as a foreground job has it (a build run in the background
        // ignores SIGINT, and so would the launcher it starts).
        Process process = Launcher.start(new ProcessBuilder(
                DefaultSigint.command(List.of("setsid", checkout.launcher.toString(), "--version"))));
        for (int waited = 0; waited < 1200 && checkout.builds().isEmpty(); waited++) {
            Thread.sleep(50);
        }
        assertEquals(1, checkout.builds().size(), "the build started");
        new ProcessBuilder("kill", "-INT", "--", "-" + process.pid()).start().waitFor(10, TimeUnit.SECONDS);

        FleetJar.Run run = finish(process);

        assertEquals(130, run.exitCode(), run.stderr());
        assertEquals("", run.stdout());
        assertTrue(run.stderr().endsWith("fleet: interrupted while building fleet.jar; nothing was run\n"),
                run.stderr());
    }
}
