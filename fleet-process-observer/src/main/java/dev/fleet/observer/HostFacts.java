package dev.fleet.observer;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The kernel boot id, the hostname and the observer's own pid namespace that go with an
 * observation. No read may fail the observation: an unknown boot id or pid namespace is null (a
 * registration's is then simply not compared), and the hostname falls back until something
 * non-blank is found.
 */
record HostFacts(String bootId, String hostname, String pidNamespace) {

    static final String UNKNOWN_HOST = "unknown";

    static HostFacts read(Path procRoot) {
        return new HostFacts(
                readTrimmed(procRoot.resolve("sys/kernel/random/boot_id")),
                hostname(procRoot),
                pidNamespace(procRoot));
    }

    /**
     * The target of {@code self/ns/pid}, e.g. {@code pid:[4026531836]}: which pid namespace this
     * process's pids (and so this observation's) belong to.
     */
    static String pidNamespace(Path procRoot) {
        try {
            String target = Files.readSymbolicLink(procRoot.resolve("self/ns/pid")).toString().trim();
            return target.isEmpty() ? null : target;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static String hostname(Path procRoot) {
        String kernel = readTrimmed(procRoot.resolve("sys/kernel/hostname"));
        if (kernel != null) {
            return kernel;
        }
        try {
            String resolved = InetAddress.getLocalHost().getHostName();
            return resolved == null || resolved.isBlank() ? UNKNOWN_HOST : resolved;
        } catch (IOException | RuntimeException e) {
            return UNKNOWN_HOST;
        }
    }

    /** The file's content trimmed, or null when it is missing, unreadable or blank. */
    private static String readTrimmed(Path file) {
        try {
            String value = new String(Files.readAllBytes(file), StandardCharsets.UTF_8).trim();
            return value.isEmpty() ? null : value;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
