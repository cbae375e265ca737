package dev.fleet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fleet.cli.testing.FleetJar;
import dev.fleet.testing.Patience;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A registry this user may not read, or a folder it may not write, says so: the line named only the
 * file (the JDK's message for a denied file is its path), or blamed a missing -shm index. Run as
 * {@code nobody} through util-linux {@code setpriv}, since root may read and write anything.
 */
class RegistryPermissionsIT {

    private Path dir;

    @BeforeEach
    void openFolder() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root, to run the jar as nobody");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), "needs util-linux setpriv");
        dir = Files.createTempDirectory("fleet-permissions");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @AfterEach
    void removeFolder() throws Exception {
        if (dir != null) {
            try (var files = Files.walk(dir)) {
                files.sorted((a, b) -> b.compareTo(a)).forEach(path -> path.toFile().delete());
            }
        }
    }

    @Test
    void aRegistryThisUserMayNotReadIsPermissionDenied() throws Exception {
        Path registry = dir.resolve("registry.sqlite3");
        assertEquals(0, FleetJar.run("registry", "migrate", "--registry", registry.toString()).exitCode());
        Files.setPosixFilePermissions(registry, PosixFilePermissions.fromString("rw-------"));
        FleetJar.Run list = asNobody("registry", "list", "--registry", registry.toString());
        assumeTrue(!list.stderr().contains("Unable to access jarfile"), "nobody cannot read the jar here");
        assertEquals(1, list.exitCode(), list.stderr());
        assertTrue(list.stderr().contains("permission denied"), list.stderr());
    }

    @Test
    void aFolderThisUserMayNotWriteIsPermissionDenied() throws Exception {
        Path folder = Files.createDirectory(dir.resolve("read-only"));
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("r-xr-xr-x"));
        FleetJar.Run migrate = asNobody("registry", "migrate", "--registry", folder.resolve("x.sqlite3").toString());
        assumeTrue(!migrate.stderr().contains("Unable to access jarfile"), "nobody cannot read the jar here");
        assertEquals(2, migrate.exitCode(), migrate.stderr());
        assertEquals(1, migrate.stderr().lines().count(), migrate.stderr());
        assertTrue(migrate.stderr().toLowerCase(Locale.ROOT).contains("permission denied"), migrate.stderr());
    }

    private FleetJar.Run asNobody(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("/usr/bin/setpriv", "--reuid", "65534", "--regid", "65534",
                "--clear-groups", FleetJar.javaBinary(), "-jar", FleetJar.JAR.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile());
        builder.environment().put("HOME", dir.toString());
        builder.environment().put("XDG_STATE_HOME", dir.toString());
        builder.environment().remove("FLEET_REGISTRY");
        builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Path out = Files.createTempFile("fleet-out", ".txt");
        Path err = Files.createTempFile("fleet-err", ".txt");
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!process.waitFor(Patience.scaled(Duration.ofSeconds(60)).toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("fleet " + String.join(" ", args) + " did not finish as nobody");
        }
        FleetJar.Run run = new FleetJar.Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
        Files.delete(out);
        Files.delete(err);
        return run;
    }
}
