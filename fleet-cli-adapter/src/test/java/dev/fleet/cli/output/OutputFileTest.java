package dev.fleet.cli.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipalLookupService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A file replaced keeps what its owner set: its mode, and its owner and group where this user may give them. */
class OutputFileTest {

    @TempDir
    Path dir;

    @Test
    void aReplacedFileKeepsItsModeOwnerAndGroup() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "only root can give a file away");
        Path roster = Files.writeString(dir.resolve("roster.json"), "{}");
        UserPrincipalLookupService users = dir.getFileSystem().getUserPrincipalLookupService();
        GroupPrincipal nogroup = users.lookupPrincipalByGroupName("nogroup");
        PosixFileAttributeView view = Files.getFileAttributeView(roster, PosixFileAttributeView.class);
        view.setOwner(users.lookupPrincipalByName("nobody"));
        view.setGroup(nogroup);
        Files.setPosixFilePermissions(roster, PosixFilePermissions.fromString("rw-r-----"));

        OutputFile.write(roster, "{\"members\": []}".getBytes(StandardCharsets.UTF_8));

        PosixFileAttributes after = Files.readAttributes(roster, PosixFileAttributes.class);
        assertEquals("{\"members\": []}", Files.readString(roster));
        assertEquals("nobody", after.owner().getName());
        assertEquals(nogroup, after.group());
        assertEquals("rw-r-----", PosixFilePermissions.toString(after.permissions()));
    }

    @Test
    void aNewFileIsThisUsersAndReadableByAll() throws Exception {
        Path metrics = dir.resolve("fleet.prom");

        OutputFile.write(metrics, "x 1\n".getBytes(StandardCharsets.UTF_8));

        assertEquals(System.getProperty("user.name"), Files.getOwner(metrics).getName());
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(metrics)));
    }
}
