package dev.fleet.domain;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A host's identity in a registry shared by many hosts (docs/CONTRACT.md, "Many hosts"): the first 32 hex
 * digits of SHA-256 over the host's machine id followed by the text {@code fleet}, else over its
 * hostname. Never the raw machine id, which other software treats as a secret-ish identifier. Pure:
 * the caller reads the files (the process observer does) and passes their text.
 */
public final class HostId {

    /** Hex digits kept: 128 bits, enough that two hosts never collide. */
    public static final int LENGTH = 32;
    private static final String SALT = "fleet";

    private HostId() {
    }

    /** The id for a machine id as read from {@code /etc/machine-id} (trimmed first); null for a blank one. */
    public static String fromMachineId(String machineId) {
        return Text.isBlank(machineId) ? null : hash(Text.strip(machineId));
    }

    /** The id for a host known only by name; null for a blank one. */
    public static String fromHostname(String hostname) {
        return Text.isBlank(hostname) ? null : hash(Text.strip(hostname));
    }

    /**
     * Two host ids name different hosts: both known and different. A row or an answerer whose host is
     * unknown is taken to be on this host, as before hosts were recorded.
     */
    public static boolean differ(String recorded, String own) {
        return !Text.isBlank(recorded) && !Text.isBlank(own) && !Text.strip(recorded).equals(Text.strip(own));
    }

    private static String hash(String text) {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            byte[] digest = sha256.digest((text + SALT).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest).substring(0, LENGTH);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JDK", e);
        }
    }
}
