package dev.fleet.cli.mcpconfig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Optional;

/**
 * The checkout's {@code fleet} launcher that built the jar this runs from, which a configuration may name instead of
 * {@code java -jar}: only where the jar lies where the launcher builds it ({@code CHECKOUT/fleet-cli-adapter/target/
 * fleet.jar}) and the launcher beside it is a regular executable file of the jar's owner that not everyone may write
 * (a group that may write it may write the checkout's sources as well: umask 002 makes both so).
 * Any other program called {@code fleet} three folders up (a jar copied to {@code /tmp/x/y/fleet.jar}, and a
 * {@code /tmp/fleet} another user planted) would be started by every MCP client the configuration is pasted into.
 */
final class CheckoutLauncher {

    private CheckoutLauncher() {
    }

    /** The launcher that builds {@code jar}, when it is one to trust; empty otherwise. */
    static Optional<Path> of(Path jar) {
        Path target = jar.getParent();
        Path module = target == null ? null : target.getParent();
        Path checkout = module == null ? null : module.getParent();
        if (checkout == null || !named(jar, "fleet.jar") || !named(target, "target")
                || !named(module, "fleet-cli-adapter")) {
            return Optional.empty();
        }
        Path launcher = checkout.resolve("fleet");
        try {
            boolean trusted = Files.isRegularFile(launcher, LinkOption.NOFOLLOW_LINKS) && Files.isExecutable(launcher)
                    && Files.getOwner(launcher, LinkOption.NOFOLLOW_LINKS).equals(Files.getOwner(jar))
                    && !Files.getPosixFilePermissions(launcher, LinkOption.NOFOLLOW_LINKS)
                            .contains(PosixFilePermission.OTHERS_WRITE);
            return trusted ? Optional.of(launcher) : Optional.empty();
        } catch (IOException | UnsupportedOperationException e) {
            return Optional.empty();
        }
    }

    private static boolean named(Path path, String name) {
        return path.getFileName() != null && path.getFileName().toString().equals(name);
    }
}
