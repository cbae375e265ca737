package dev.fleet.cli.mcpconfig;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A configuration names the checkout's launcher only where it built the jar this runs from: never another program
 * called {@code fleet} three folders above a jar kept elsewhere, nor a launcher everyone may write or another owns.
 */
class CheckoutLauncherTest {

    @TempDir
    Path root;

    private Path jarIn(Path checkout, String module, String target) throws Exception {
        Path folder = Files.createDirectories(checkout.resolve(module).resolve(target));
        return Files.writeString(folder.resolve("fleet.jar"), "jar");
    }

    private Path launcherIn(Path checkout, String permissions) throws Exception {
        Path launcher = Files.writeString(checkout.resolve("fleet"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString(permissions));
        return launcher;
    }

    @Test
    void theCheckoutsOwnLauncherIsNamed() throws Exception {
        Path checkout = root.resolve("checkout");
        Path jar = jarIn(checkout, "fleet-cli-adapter", "target");
        Path launcher = launcherIn(checkout, "rwxr-xr-x");

        assertEquals(Optional.of(launcher), CheckoutLauncher.of(jar));
    }

    @Test
    void aProgramCalledFleetAboveAJarKeptElsewhereIsNot() throws Exception {
        Path plant = root.resolve("plant");
        Path jar = jarIn(plant, "dl", "lib");
        launcherIn(plant, "rwxr-xr-x");

        assertEquals(Optional.empty(), CheckoutLauncher.of(jar));
    }

    @Test
    void aLauncherEveryoneMayWriteOrThatIsALinkIsNot() throws Exception {
        Path checkout = root.resolve("checkout");
        Path jar = jarIn(checkout, "fleet-cli-adapter", "target");
        Path launcher = launcherIn(checkout, "rwxrwxr-x");
        assertEquals(Optional.of(launcher), CheckoutLauncher.of(jar), "group-writable, as umask 002 leaves a checkout");

        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xrwx"));
        assertEquals(Optional.empty(), CheckoutLauncher.of(jar), "world-writable");

        Path elsewhere = Files.move(launcher, root.resolve("elsewhere"));
        Files.setPosixFilePermissions(elsewhere, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.createSymbolicLink(checkout.resolve("fleet"), elsewhere);
        assertEquals(Optional.empty(), CheckoutLauncher.of(jar), "a symbolic link");
    }

    @Test
    void aLauncherAnotherUserOwnsIsNot() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "only root can give a file away");
        Path checkout = root.resolve("checkout");
        Path jar = jarIn(checkout, "fleet-cli-adapter", "target");
        Path launcher = launcherIn(checkout, "rwxr-xr-x");
        UserPrincipal nobody = root.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
        Files.setOwner(launcher, nobody);

        assertEquals(Optional.empty(), CheckoutLauncher.of(jar));
    }
}
