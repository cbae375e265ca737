package dev.fleet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
 * file (the JDK's message for a denied file is its path), or blamed a missing -shm index; and another
 * user's read leaves nothing its owner cannot write. Run as {@code nobody} (and {@code daemon}) through
 * util-linux {@code setpriv}, since root may read and write anything.
 */
class RegistryPermissionsIT {

    private static final int NOBODY = 65534;
    /** Debian's daemon user: another user than nobody, and not root, who may write anything. */
    private static final int DAEMON = 1;

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

    /** A roster file this user may not read says why, not just its path again. */
    @Test
    void aRosterThisUserMayNotReadIsPermissionDeniedInOneLine() throws Exception {
        Path roster = Files.writeString(dir.resolve("roster.json"), "{}");
        Files.setPosixFilePermissions(roster, PosixFilePermissions.fromString("rw-------"));
        FleetJar.Run shown = asNobody("roster", "--roster", roster.toString());
        assumeTrue(!shown.stderr().contains("Unable to access jarfile"), "nobody cannot read the jar here");
        assertEquals(2, shown.exitCode(), shown.stderr());
        assertEquals("fleet: roster " + roster + ": cannot read: permission denied\n", shown.stderr());
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

    /**
     * Another user's read of a registry in a folder both may write (as {@code /tmp}) left its -shm index
     * and -wal log as that user's, and the owner's servers could no longer write the registry. Such a
     * read is refused now, one clear detail, and leaves nothing; once the owner's own read has left
     * both files (the owner's), the other user reads as before.
     */
    @Test
    void anotherUsersReadLeavesNoFileTheOwnerCannotWrite() throws Exception {
        Path registry = daemonsRegistryIn(sharedFolder());
        Path shared = registry.getParent();
        assertEquals(1, (Integer) Files.getAttribute(registry, "unix:uid"));

        FleetJar.Run refused = asNobody("assess", "--registry", registry.toString(), "--format", "json");
        assertEquals(1, refused.exitCode(), refused.stderr());
        assertTrue(refused.stdout().contains("\"reason\":\"io_error\""), refused.stdout());
        assertTrue(refused.stdout().contains("which the registry's owner (uid 1) could not write"), refused.stdout());
        assertFalse(Files.exists(shared.resolve("registry.sqlite3-shm")), "a -shm index left behind");
        assertFalse(Files.exists(shared.resolve("registry.sqlite3-wal")), "a -wal log left behind");

        assertEquals(1, asUser(DAEMON, "assess", "--registry", registry.toString()).exitCode());
        assertEquals(1, (Integer) Files.getAttribute(shared.resolve("registry.sqlite3-shm"), "unix:uid"));
        FleetJar.Run read = asNobody("assess", "--registry", registry.toString(), "--format", "json");
        assertTrue(read.stdout().contains("\"readable\":true"), read.stdout());
    }

    /** Root writes whatever another user's read leaves: a registry root owns is read by anyone, as before. */
    @Test
    void aRegistryRootOwnsInASharedFolderIsReadByAnyone() throws Exception {
        Path registry = sharedFolder().resolve("registry.sqlite3");
        assertEquals(0, FleetJar.run("registry", "migrate", "--registry", registry.toString()).exitCode());
        FleetJar.Run read = asNobody("assess", "--registry", registry.toString(), "--format", "json");
        assumeTrue(!read.stderr().contains("Unable to access jarfile"), "nobody cannot read the jar here");
        assertTrue(read.stdout().contains("\"readable\":true"), read.stdout());
    }

    /**
     * What such a read left before (or another tool leaves): the owner's writes fail, and SQLite said only
     * "cannot commit - no transaction is active". The line now names the file, its user and the remedy.
     */
    @Test
    void aWriteBlockedByAnotherUsersFilesSaysWhichAndWhatToDo() throws Exception {
        Path registry = daemonsRegistryIn(sharedFolder());
        Path shared = registry.getParent();
        // the owner's read leaves both files; given to nobody, they are what nobody's read left before
        assertEquals(1, asUser(DAEMON, "assess", "--registry", registry.toString()).exitCode());
        for (String suffix : List.of("-shm", "-wal")) {
            Files.setAttribute(shared.resolve("registry.sqlite3" + suffix), "unix:uid", NOBODY);
        }

        FleetJar.Run blocked = asUser(DAEMON, "registry", "migrate", "--registry", registry.toString());
        assertEquals(2, blocked.exitCode(), blocked.stderr());
        assertEquals(1, blocked.stderr().lines().count(), blocked.stderr());
        assertTrue(blocked.stderr().contains("registry.sqlite3-shm beside it belongs to uid 65534 and this user may "
                + "not write it"), blocked.stderr());
        assertTrue(blocked.stderr().contains("remove registry.sqlite3-shm and -wal while no fleet server"), blocked.stderr());
    }

    /** A folder every user may write, as {@code /tmp} (not sticky: see ForeignWalFilesTest for that). */
    private Path sharedFolder() throws Exception {
        Path shared = Files.createDirectory(dir.resolve("shared"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        return shared;
    }

    /** A registry migrated in {@code folder} by {@code daemon}, its owner. */
    private Path daemonsRegistryIn(Path folder) throws Exception {
        Path registry = folder.resolve("registry.sqlite3");
        FleetJar.Run migrate = asUser(DAEMON, "registry", "migrate", "--registry", registry.toString());
        assumeTrue(!migrate.stderr().contains("Unable to access jarfile"), "daemon cannot read the jar here");
        assertEquals(0, migrate.exitCode(), migrate.stderr());
        return registry;
    }

    private FleetJar.Run asNobody(String... args) throws Exception {
        return asUser(NOBODY, args);
    }

    private FleetJar.Run asUser(int uid, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("/usr/bin/setpriv", "--reuid", String.valueOf(uid), "--regid",
                String.valueOf(uid), "--clear-groups", FleetJar.javaBinary(), "-jar", FleetJar.JAR.toString()));
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
