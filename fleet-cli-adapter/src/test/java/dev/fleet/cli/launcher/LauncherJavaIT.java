package dev.fleet.cli.launcher;

import static dev.fleet.cli.launcher.Launcher.executable;
import static dev.fleet.cli.launcher.Launcher.finish;
import static dev.fleet.cli.launcher.Launcher.launcher;
import static dev.fleet.cli.launcher.Launcher.version;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.cli.exit.ExitCodes;
import dev.fleet.cli.testing.FleetJar;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Which java the {@code ./fleet} launcher runs: JAVA_HOME's before the one on PATH; and without a java, or
 * with one older than 17, one line on stderr that says what to install or set, and exit 1.
 */
class LauncherJavaIT {

    private static final Path LAUNCHER = Launcher.PATH;

    @Test
    void javaHomeComesBeforeTheJavaOnPath(@TempDir Path dir) throws Exception {
        Path bin = Files.createDirectory(dir.resolve("bin"));
        executable(bin.resolve("java"), "#!/bin/sh\necho 'the java on PATH ran' >&2\nexit 99\n");
        ProcessBuilder builder = launcher(LAUNCHER, "--version");
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().put("PATH", bin + ":" + builder.environment().get("PATH"));

        FleetJar.Run run = finish(Launcher.start(builder));

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

        FleetJar.Run run = finish(Launcher.start(builder));

        assertEquals(2, run.exitCode(), run.stderr());
        assertEquals(List.of("fleet: no java found: install a JDK 17 or later, or set JAVA_HOME to one"),
                run.stderrLines());
    }

    /**
     * Another JDK (JAVA_HOME) than the one that built the jar runs it without a word on stderr: it is
     * not handed the build's class-data archive, which it would refuse with an error line at every
     * start, and the SQLite driver's native library loads without JDK 22's restricted-method warning.
     */
    @Test
    void anotherJdkRunsTheJarWithoutAWordOnStderr(@TempDir Path dir) throws Exception {
        Path otherJdk = otherJdk();
        Assumptions.assumeTrue(otherJdk != null, "no JDK 17+ beside " + System.getProperty("java.home"));
        Path registry = dir.resolve("control_plane.sqlite3");
        ProcessBuilder migrate = launcher(LAUNCHER, "registry", "migrate", "--registry", registry.toString());
        ProcessBuilder assess = launcher(LAUNCHER, "assess", "--format", "json", "--registry", registry.toString());
        for (ProcessBuilder builder : List.of(migrate, assess)) {
            builder.environment().put("JAVA_HOME", otherJdk.toString());
        }

        FleetJar.Run migrated = finish(Launcher.start(migrate));
        FleetJar.Run assessed = finish(Launcher.start(assess));

        assertEquals(0, migrated.exitCode(), migrated.stderr());
        assertEquals("", migrated.stderr());
        assertEquals(ExitCodes.NEGATIVE, assessed.exitCode(), assessed.stderr());
        assertEquals("", assessed.stderr());
    }

    /** An operator's JAVA_HOME still chooses the java, for {@code assess} too, with that java's own archive. */
    @Test
    void javaHomeChoosesTheJavaForAssessToo(@TempDir Path dir) throws Exception {
        ProcessBuilder builder = assessShowingItsJava(LAUNCHER, dir);
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));

        FleetJar.Run run = finish(Launcher.start(builder));

        assertEquals(ExitCodes.NEGATIVE, run.exitCode(), run.stderr());
        assertTrue(run.stderrLines().contains("    java.home = " + System.getProperty("java.home")), run.stderr());
        FleetJar.assertMappedFromTheArchive(dir.resolve("classes.log"), "picocli.CommandLine");
    }

    /** {@code assess} on an empty registry, printing its JVM's properties and logging where its classes come from. */
    private static ProcessBuilder assessShowingItsJava(Path script, Path dir) {
        ProcessBuilder builder = launcher(script, "assess", "--format", "json", "--registry",
                dir.resolve("absent.sqlite3").toString());
        builder.environment().put("FLEET_JAVA_OPTS", "-XshowSettings:properties -Xlog:class+load=info:file="
                + dir.resolve("classes.log"));
        return builder;
    }

    /** A JDK 17 or later under this java's parent folder (/usr/lib/jvm) whose version is not this java's. */
    private static Path otherJdk() throws IOException {
        String ownVersion = "JAVA_VERSION=\"" + System.getProperty("java.version") + "\"";
        return jdkBesideThisOne(line -> line.matches("JAVA_VERSION=\"(1[7-9]|[2-9][0-9])[.\"].*")
                && !line.equals(ownVersion));
    }

    /** The first JDK under this java's parent folder (/usr/lib/jvm), by name, with a release line that {@code version} accepts. */
    private static Path jdkBesideThisOne(Predicate<String> version) throws IOException {
        Path own = Path.of(System.getProperty("java.home")).toRealPath();
        try (Stream<Path> homes = Files.list(own.getParent())) {
            return homes.filter(home -> Files.isExecutable(home.resolve("bin/java")))
                    .filter(home -> releaseLines(home).stream().anyMatch(version))
                    .sorted().findFirst().orElse(null);
        }
    }

    private static List<String> releaseLines(Path home) {
        try {
            return Files.readAllLines(home.resolve("release"));
        } catch (IOException e) {
            return List.of();
        }
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

        FleetJar.Run run = finish(Launcher.start(builder));

        assertEquals(2, run.exitCode(), run.stderr());
        assertEquals(List.of("fleet: " + home.resolve("bin/java") + " is Java 1.8.0_392; fleet needs 17 or later "
                + "(set JAVA_HOME to a JDK 17+)"), run.stderrLines());
    }
}
