package dev.fleet.domain.verdict;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code verdict_digest}: SHA-256 over the canonical encoding of every verdict field except
 * {@code observation} and the digest itself, so two members answering about an unchanged fleet
 * return the same digest whoever renders it.
 */
public final class VerdictDigest {

    static final String PREFIX = "sha256:";

    private VerdictDigest() {
    }

    /** The digest of a verdict document (see {@link VerdictDocument#toTree}). */
    public static String of(Map<String, Object> document) {
        Map<String, Object> digested = new LinkedHashMap<>(document);
        digested.remove(VerdictDocument.OBSERVATION);
        digested.remove(VerdictDocument.VERDICT_DIGEST);
        byte[] canonical = CanonicalJson.encode(digested).getBytes(StandardCharsets.UTF_8);
        try {
            return PREFIX + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(canonical));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK provides SHA-256", e);
        }
    }
}
