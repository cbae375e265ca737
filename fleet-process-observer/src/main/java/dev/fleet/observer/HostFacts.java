package dev.fleet.observer;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The kernel boot id and the hostname that go with an observation. Neither read may fail the
 * observation: an unknown boot id is null (a registration's boot id is then simply not compared),
 * and the hostname falls back until something non-blank is found.
 */
record HostFacts(String bootId, String hostname) {

    static final String UNKNOWN_HOST = "unknown";

    static HostFacts read(Path procRoot) {
        return new HostFacts(
                readTrimmed(procRoot.resolve("sys/kernel/random/boot_id")),
                hostname(procRoot));
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
