package dev.fleet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.RegistryRow;
import dev.fleet.registry.sqlite.SqliteRegistryReader;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/** The {@code ./fleet} launcher at the repository root, as operators and MCP clients run it. */
class LauncherIT {

    private static final Path LAUNCHER = Path.of("..", "fleet").toAbsolutePath().normalize();

    private static ProcessBuilder launcher(Path launcher, String... args) {
        java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of(launcher.toString()));
        command.addAll(java.util.List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        TestFleets.isolate(builder.environment());
        return builder;
    }

    @Test
    void runsTheJarWithTheGivenArguments(@TempDir Path dir) throws Exception {
        Path registry = dir.resolve("r.sqlite3");
        Process process = launcher(LAUNCHER, "registry", "migrate", "--registry", registry.toString())
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue(), output);
        assertEquals("registry " + registry + " at schema version 6\n", output);
    }

    @Test
    void worksThroughASymlinkAsFromAnInstalledBinDirectory(@TempDir Path dir) throws Exception {
        Path link = Files.createSymbolicLink(dir.resolve("fleet"), LAUNCHER);
        Process process = launcher(link, "roster").redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue(), output);
        assertTrue(output.startsWith("binding  remote=prgs"), output);
    }

    @Test
    void theServerIsTheLaunchersOwnProcessNotAChildOfIt(@TempDir Path dir) throws Exception {
        Path registry = dir.resolve("r.sqlite3");
        Process server = launcher(LAUNCHER, "serve", "--profile", "prgs-merger", "--registry", registry.toString())
                .redirectError(dir.resolve("stderr").toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            List<RegistryRow> rows = List.of();
            for (int attempt = 0; attempt < 600 && rows.isEmpty(); attempt++) {
                Thread.sleep(50);
                rows = new SqliteRegistryReader(registry).readAll().rows();
            }
            assertEquals(1, rows.size(), Files.readString(dir.resolve("stderr")));
            assertEquals(server.pid(), rows.get(0).pid(), "exec: the registered pid is the launcher's");
            assertEquals(0, server.children().count(), "no wrapper process is left beside the server");
        } finally {
            server.getOutputStream().close();
            assertTrue(server.waitFor(10, TimeUnit.SECONDS));
        }
        assertEquals("stopped", new SqliteRegistryReader(registry).readAll().rows().get(0).status());
        assertTrue(new File(LAUNCHER.toString()).canExecute());
    }

    /**
     * A copy of the launcher in a scratch checkout whose {@code mvnw} stands in for Maven: it logs
     * each call, writes a line to stdout (which the launcher must keep off its own stdout), takes a
     * second, and installs the real packaged jar with a new modification time. What is under test
     * is the launcher's decision, its lock and its streams; a real Maven build takes minutes on a
     * busy two-core host, and the jar it runs afterwards is the real one.
     */
    private static final class ScratchCheckout {
        final Path root;
        final Path jar;
        final Path builds;
        final Path launcher;

        ScratchCheckout(Path root) throws Exception {
            this.root = root;
            this.jar = root.resolve("fleet-cli-adapter/target/fleet.jar");
            this.builds = root.resolve("builds.log");
            this.launcher = Files.copy(LAUNCHER, root.resolve("fleet"));
            Path mvnw = Files.writeString(root.resolve("mvnw"), "#!/usr/bin/env bash\n"
                    + "here=\"$(cd \"$(dirname \"$0\")\" && pwd)\"\n"
                    + "echo \"$*\" >> \"$here/builds.log\"\n"
                    + "echo 'stand-in maven: this line went to stdout'\n"
                    + "[[ -e \"$here/fail\" ]] && exit 1\n"
                    + "sleep 1\n"
                    + "mkdir -p \"$here/fleet-cli-adapter/target\"\n"
                    + "cp '" + FleetJar.JAR + "' \"$here/fleet-cli-adapter/target/fleet.jar\"\n");
            mvnw.toFile().setExecutable(true);
            for (String input : List.of("pom.xml", "fleet-domain/pom.xml", "fleet-domain/src/main/java/A.java",
                    "fleet-domain/src/test/java/ATest.java", ".mvn/wrapper/maven-wrapper.properties",
                    "docs/NOT-AN-INPUT.md")) {
                Files.createDirectories(root.resolve(input).getParent());
                Files.writeString(root.resolve(input), input);
            }
            Files.createDirectories(jar.getParent());
            Files.copy(FleetJar.JAR, jar);
            // Folders count too: adding or deleting a source file changes only its folder's time.
            try (java.util.stream.Stream<Path> everything = Files.walk(root)) {
                for (Path path : everything.toList()) {
                    age(path, 120);
                }
            }
            age(jar, 60);
        }

        static void age(Path file, long seconds) throws Exception {
            Files.setLastModifiedTime(file, java.nio.file.attribute.FileTime.from(
                    java.time.Instant.now().minusSeconds(seconds)));
        }

        List<String> builds() throws Exception {
            return Files.exists(builds) ? Files.readAllLines(builds) : List.of();
        }

        Process start(String... args) throws Exception {
            return launcher(launcher, args).redirectError(ProcessBuilder.Redirect.PIPE).start();
        }
    }

    private static FleetJar.Run finish(Process process) throws Exception {
        java.util.concurrent.CompletableFuture<String> err = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return new String(process.getErrorStream().readAllBytes());
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        String out = new String(process.getInputStream().readAllBytes());
        assertTrue(process.waitFor(120, TimeUnit.SECONDS));
        return new FleetJar.Run(process.exitValue(), out, err.get());
    }

    private static String version() {
        return FleetJar.run("--version").stdout();
    }

    @Test
    void aJarNewerThanEverySourceAndPomRunsWithoutABuild(@TempDir Path dir) throws Exception {
        ScratchCheckout checkout = new ScratchCheckout(dir);
        Files.writeString(dir.resolve("docs/NOT-AN-INPUT.md"), "an edit outside the build's inputs");

        FleetJar.Run run = finish(checkout.start("--version"));

        assertEquals(0, run.exitCode(), run.stderr());
        assertEquals(version(), run.stdout());
        assertEquals("", run.stderr());
        assertEquals(List.of(), checkout.builds());
    }

    @ParameterizedTest
    @ValueSource(strings = {"fleet-domain/src/main/java/A.java", "fleet-domain/src/test/java/ATest.java",
        "fleet-domain/pom.xml", "pom.xml", ".mvn/wrapper/maven-wrapper.properties"})
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

        List<Process> members = new java.util.ArrayList<>();
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

    @Test
    void aFailedBuildRunsNoOutOfDateJar(@TempDir Path dir) throws Exception {
        ScratchCheckout checkout = new ScratchCheckout(dir);
        Files.writeString(dir.resolve("fleet-domain/src/main/java/A.java"), "edited");
        Files.writeString(dir.resolve("fail"), "");

        FleetJar.Run run = finish(checkout.start("--version"));

        assertEquals(1, run.exitCode(), run.stderr());
        assertEquals("", run.stdout(), "the old jar did not run");
        assertTrue(run.stderr().endsWith("fleet: the build failed (see above); not running an out-of-date jar\n"),
                run.stderr());
    }
}
