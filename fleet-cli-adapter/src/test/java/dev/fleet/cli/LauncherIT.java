package dev.fleet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.RegistryRow;
import dev.fleet.testing.Patience;
import dev.fleet.registry.sqlite.SqliteRegistryReader;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
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
     * The verbs that look once a second start with the JIT and deflation settings that keep a look
     * cheap (docs/PERFORMANCE.md, Watching a fleet), and HotSpot's CompileCommand echo stays off
     * stdout: a server's first stdout line is its answer, a watch's its first verdict line.
     */
    @Test
    void theVerbsThatLookEverySecondStartWithTheirJitSettingsAndKeepStdoutClean(@TempDir Path dir) throws Exception {
        Path registry = dir.resolve("r.sqlite3");
        Process server = launcher(LAUNCHER, "serve", "--profile", "prgs-merger", "--registry", registry.toString())
                .redirectError(dir.resolve("serve.stderr").toFile()).start();
        Process watch = launcher(LAUNCHER, "watch", "--registry", registry.toString(), "--format", "jsonl")
                .redirectError(dir.resolve("watch.stderr").toFile()).start();
        try (var serverOut = new BufferedReader(new InputStreamReader(server.getInputStream()));
                var watchOut = new BufferedReader(new InputStreamReader(watch.getInputStream()))) {
            server.getOutputStream().write(("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n").getBytes());
            server.getOutputStream().flush();
            String answer = lineWithin(serverOut);
            assertTrue(answer.startsWith("{\"jsonrpc\":\"2.0\",\"id\":1,"), answer);
            assertTrue(lineWithin(watchOut).startsWith("{\"inventory_complete\":"), "a verdict first");
            for (Process looking : List.of(server, watch)) {
                List<String> arguments = List.of(Files.readString(Path.of("/proc", Long.toString(looking.pid()),
                        "cmdline")).split("\0"));
                assertTrue(arguments.contains("-XX:AsyncDeflationInterval=0"), arguments::toString);
                assertTrue(arguments.contains("-XX:CompileCommand=CompileThresholdScaling,dev/fleet/*.*,0.05"),
                        arguments::toString);
                assertEquals(looking == watch, arguments.contains("-XX:CompileThresholdScaling=0.05"),
                        "every class's threshold is lowered for a watch only: " + arguments);
            }
        } finally {
            watch.destroy();
            server.getOutputStream().close();
            long exit = Patience.scaled(Duration.ofSeconds(30)).toMillis();
            assertTrue(server.waitFor(exit, TimeUnit.MILLISECONDS));
            assertTrue(watch.waitFor(exit, TimeUnit.MILLISECONDS));
        }
    }

    /** The next line, waited for as long as a JVM's start takes on this host now, never for ever. */
    private static String lineWithin(BufferedReader out) throws Exception {
        CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
            try {
                return out.readLine();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        String read = line.get(Patience.scaled(Duration.ofSeconds(60)).toMillis(), TimeUnit.MILLISECONDS);
        assertTrue(read != null, "the stream ended before a line");
        return read;
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
            // Like Maven, it finds the project from its working directory: run elsewhere it fails
            // as Maven does ("Could not find the selected project in the reactor").
            Path mvnw = Files.writeString(root.resolve("mvnw"), "#!/usr/bin/env bash\n"
                    + "here=\"$(cd \"$(dirname \"$0\")\" && pwd -P)\"\n"
                    + "[[ \"$(pwd -P)\" == \"$here\" ]] || { echo \"[ERROR] Could not find the selected project in "
                    + "the reactor: fleet-cli-adapter (run in $(pwd))\"; exit 1; }\n"
                    + "echo \"$*\" >> \"$here/builds.log\"\n"
                    + "echo 'stand-in maven: this line went to stdout'\n"
                    + "[[ -e \"$here/fail\" ]] && exit 1\n"
                    + "[[ -e \"$here/slow\" ]] && sleep 120\n"
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
            return start(launcher(launcher, args));
        }

        /** Started from {@code directory}, as an MCP client whose working directory is elsewhere starts it. */
        Process startIn(Path directory, Path through, String... args) throws Exception {
            return start(launcher(through, args).directory(directory.toFile()));
        }

        static Process start(ProcessBuilder builder) throws Exception {
            return builder.redirectError(ProcessBuilder.Redirect.PIPE).start();
        }
    }

    private static FleetJar.Run finish(Process process) throws Exception {
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(process.getErrorStream().readAllBytes());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        String out = new String(process.getInputStream().readAllBytes());
        assertTrue(process.waitFor(120, TimeUnit.SECONDS));
        return new FleetJar.Run(process.exitValue(), out, err.get());
    }

    private static String version() {
        return FleetJar.run("--version").stdout();
    }

    /**
     * An edit outside the build's inputs, a document or a test source (which is not in the jar),
     * does not make every MCP client wait for a build.
     */
    @ParameterizedTest
    @ValueSource(strings = {"docs/NOT-AN-INPUT.md", "fleet-domain/src/test/java/ATest.java"})
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
    void javaHomeComesBeforeTheJavaOnPath(@TempDir Path dir) throws Exception {
        Path bin = Files.createDirectory(dir.resolve("bin"));
        executable(bin.resolve("java"), "#!/bin/sh\necho 'the java on PATH ran' >&2\nexit 99\n");
        ProcessBuilder builder = launcher(LAUNCHER, "--version");
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().put("PATH", bin + ":" + builder.environment().get("PATH"));

        FleetJar.Run run = finish(ScratchCheckout.start(builder));

        assertEquals(0, run.exitCode(), run.stderr());
        assertEquals(version(), run.stdout());
    }

    @Test
    void withoutAnyJavaItSaysSoInOneLine(@TempDir Path dir) throws Exception {
        // A PATH with the launcher's tools but no java.
        Path bin = Files.createDirectory(dir.resolve("bin"));
        for (String tool : List.of("bash", "dirname", "readlink", "find", "sed", "head", "cut", "mkdir", "mktemp",
                "rm", "flock")) {
            Path real = Path.of("/usr/bin", tool);
            Files.createSymbolicLink(bin.resolve(tool), Files.exists(real) ? real : Path.of("/bin", tool));
        }
        ProcessBuilder builder = launcher(LAUNCHER, "--version");
        builder.environment().remove("JAVA_HOME");
        builder.environment().put("PATH", bin.toString());

        FleetJar.Run run = finish(ScratchCheckout.start(builder));

        assertEquals(1, run.exitCode(), run.stderr());
        assertEquals(List.of("fleet: no java found: install a JDK 17 or later, or set JAVA_HOME to one"),
                run.stderrLines());
    }

    @ParameterizedTest
    @ValueSource(strings = {"release", "asked"})
    void aJavaOlderThan17IsRefusedInOneLine(String howTheVersionIsKnown, @TempDir Path dir) throws Exception {
        Path home = Files.createDirectories(dir.resolve("jdk8/bin")).getParent();
        executable(home.resolve("bin/java"), "#!/bin/sh\necho 'openjdk version \"1.8.0_392\"' >&2\n");
        if (howTheVersionIsKnown.equals("release")) {
            Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"Test\"\nJAVA_VERSION=\"1.8.0_392\"\n");
        }
        ProcessBuilder builder = launcher(LAUNCHER, "--version");
        builder.environment().put("JAVA_HOME", home.toString());

        FleetJar.Run run = finish(ScratchCheckout.start(builder));

        assertEquals(1, run.exitCode(), run.stderr());
        assertEquals(List.of("fleet: " + home.resolve("bin/java") + " is Java 1.8.0_392; fleet needs 17 or later "
                + "(set JAVA_HOME to a JDK 17+)"), run.stderrLines());
    }

    @Test
    void ctrlCDuringTheBuildSaysInterruptedAndExits130(@TempDir Path dir) throws Exception {
        ScratchCheckout checkout = new ScratchCheckout(dir);
        Files.writeString(dir.resolve("fleet-domain/src/main/java/A.java"), "edited");
        Files.writeString(dir.resolve("slow"), "");
        // Its own process group, as a shell gives a foreground job: Ctrl-C signals the whole group. And
        // SIGINT at its default disposition, as a foreground job has it (a build run in the background
        // ignores SIGINT, and so would the launcher it starts).
        Process process = ScratchCheckout.start(new ProcessBuilder(
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

    private static void executable(Path file, String script) throws Exception {
        Files.writeString(file, script);
        assertTrue(file.toFile().setExecutable(true));
    }
}
