package dev.fleet.cli.demo;

import dev.fleet.cli.demo.DemoWatch;
import dev.fleet.cli.jar.RunningJar;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * How the user runs fleet again from the directory they started this process in, as shell words to
 * paste: the {@code ./fleet} launcher as they named it ({@code ./fleet}, {@code ../fleet}, or
 * {@code fleet} when that is what their PATH finds), which the launcher passes in
 * {@value #PROPERTY}; else the launcher beside this jar, by its absolute path; else this java and
 * this jar, by theirs. Never a command that fails pasted into a shell in that directory.
 *
 * @param command the shell words that start fleet
 * @param neededDirectory the directory they must be run from (a relative path), else null
 */
record FleetInvocation(String command, Path neededDirectory) {

    /** Set by the launcher to its {@code $0}: how the user invoked it, relative to their working directory. */
    static final String PROPERTY = "fleet.launcher.invoked";

    /** How this very process would be started again from its working directory. */
    static FleetInvocation ofThisProcess() {
        return of(System.getProperty(PROPERTY), Path.of("").toAbsolutePath(), System.getenv("PATH"),
                RunningJar.path(), RunningJar.javaBinary());
    }

    static FleetInvocation of(String invoked, Path directory, String searchPath, Path jar, String java) {
        // A name without a slash ("bash fleet") is looked up on PATH by a shell, not in the directory.
        if (invoked != null && invoked.contains("/") && runnable(directory.resolve(invoked))) {
            Path launcher = directory.resolve(invoked);
            String name = launcher.getFileName().toString();
            if (Path.of(invoked).isAbsolute()) {
                boolean found = onPath(name, searchPath).filter(first -> same(first, launcher)).isPresent();
                return new FleetInvocation(DemoWatch.shellWord(found ? name : invoked), null);
            }
            return new FleetInvocation(DemoWatch.shellWord(invoked), directory);
        }
        // The jar of a checkout is fleet-cli-adapter/target/fleet.jar, and the launcher at the checkout's root.
        Path root = jar.getParent() == null || jar.getParent().getParent() == null ? null
                : jar.getParent().getParent().getParent();
        if (root != null && runnable(root.resolve("fleet"))) {
            return new FleetInvocation(DemoWatch.shellWord(root.resolve("fleet").toString()), null);
        }
        return new FleetInvocation(DemoWatch.shellWord(java) + " -jar " + DemoWatch.shellWord(jar.toString()), null);
    }

    /** The first executable {@code name} on {@code searchPath}, as a shell would find it. */
    private static Optional<Path> onPath(String name, String searchPath) {
        if (searchPath == null) {
            return Optional.empty();
        }
        for (String entry : searchPath.split(File.pathSeparator, -1)) {
            if (!entry.isEmpty() && Path.of(entry).isAbsolute() && runnable(Path.of(entry, name))) {
                return Optional.of(Path.of(entry, name));
            }
        }
        return Optional.empty();
    }

    private static boolean runnable(Path file) {
        return Files.isRegularFile(file) && Files.isExecutable(file);
    }

    private static boolean same(Path one, Path other) {
        try {
            return Files.isSameFile(one, other);
        } catch (IOException | SecurityException e) {
            return false;
        }
    }
}
