package dev.fleet.registry.sqlite;

import java.nio.file.Path;

/**
 * Reads a registry as an assessment does, in a JVM of its own, so a test can watch it from outside
 * (strace) with whatever HOME and XDG_CACHE_HOME it is given. Argument: the registry file.
 */
public final class NoProcessNoWriteMain {

    private NoProcessNoWriteMain() {
    }

    public static void main(String[] args) {
        System.out.println(new SqliteRegistryReader(Path.of(args[0])).readAll().readable() ? "readable" : "unreadable");
    }
}
