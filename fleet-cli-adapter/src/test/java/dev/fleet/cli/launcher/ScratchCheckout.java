package dev.fleet.cli.launcher;

import dev.fleet.cli.testing.FleetJar;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;

/**
 * A copy of the launcher in a scratch checkout whose {@code mvnw} stands in for Maven: it logs
 * each call, writes a line to stdout (which the launcher must keep off its own stdout), takes a
 * second, and installs the real packaged jar with a new modification time. What is under test
 * is the launcher's decision, its lock and its streams; a real Maven build takes minutes on a
 * busy two-core host, and the jar it runs afterwards is the real one.
 */
final class ScratchCheckout {
    final Path root;
    final Path jar;
    final Path builds;
    final Path launcher;

    ScratchCheckout(Path root) throws Exception {
        this.root = root;
        this.jar = root.resolve("fleet-cli-adapter/target/fleet.jar");
        this.builds = root.resolve("builds.log");
        this.launcher = Files.copy(Launcher.PATH, root.resolve("fleet"));
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
                "docs/NOT-AN-INPUT.md", "fleet-benchmarks/pom.xml", "fleet-benchmarks/src/main/java/Bench.java")) {
            Files.createDirectories(root.resolve(input).getParent());
            Files.writeString(root.resolve(input), input);
        }
        // The JVM options the launcher reads, listed once for it and the jar.
        Path options = root.resolve(Launcher.JVM_OPTIONS);
        Files.createDirectories(options.getParent());
        Files.copy(Launcher.PATH.resolveSibling(Launcher.JVM_OPTIONS), options);
        Files.createDirectories(jar.getParent());
        Files.copy(FleetJar.JAR, jar);
        // Folders count too: adding or deleting a source file changes only its folder's time.
        try (Stream<Path> everything = Files.walk(root)) {
            for (Path path : everything.toList()) {
                age(path, 120);
            }
        }
        age(jar, 60);
    }

    static void age(Path file, long seconds) throws Exception {
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().minusSeconds(seconds)));
    }

    List<String> builds() throws Exception {
        return Files.exists(builds) ? Files.readAllLines(builds) : List.of();
    }

    Process start(String... args) throws Exception {
        return Launcher.start(Launcher.launcher(launcher, args));
    }

    /** Started from {@code directory}, as an MCP client whose working directory is elsewhere starts it. */
    Process startIn(Path directory, Path through, String... args) throws Exception {
        return Launcher.start(Launcher.launcher(through, args).directory(directory.toFile()));
    }
}
