package dev.fleet.domain.verdict;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * {@code verdict_digest}: SHA-256 over the canonical encoding of every verdict field except
 * {@code observation}, the digest itself and every {@code last_heartbeat_at}, so two members
 * answering about an unchanged fleet return the same digest whoever renders it and whenever,
 * within the fleet's life, each answers.
 */
public final class VerdictDigest {

    static final String PREFIX = "sha256:";

    private VerdictDigest() {
    }

    /** The digest of {@code verdict} (its own {@code verdictDigest} is not read). */
    public static String of(Verdict verdict) {
        byte[] canonical = CanonicalJson.encode(VerdictDocument.digestedTree(verdict)).getBytes(StandardCharsets.UTF_8);
        try {
            return PREFIX + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(canonical));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK provides SHA-256", e);
        }
    }
}
