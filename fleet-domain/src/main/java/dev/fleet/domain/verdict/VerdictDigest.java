package dev.fleet.domain.verdict;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * {@code verdict_digest}: SHA-256 over the canonical encoding of every verdict field except
 * {@code observation}, the digest itself and every {@code last_heartbeat_at}, so two members
 * answering about an unchanged fleet return the same digest whoever renders it and whenever,
 * within the fleet's life, each answers.
 *
 * <p>The encoding is written straight into the digest as UTF-8, chunk by chunk: the same bytes as
 * the canonical JSON of that part of the document as UTF-8, without a tree, a String or a byte
 * array.
 */
public final class VerdictDigest {

    static final String PREFIX = "sha256:";

    private VerdictDigest() {
    }

    /** The digest of {@code verdict} (its own {@code verdictDigest} is not read). */
    public static String of(Verdict verdict) {
        MessageDigest sha256 = sha256();
        CanonicalWriter writer = CanonicalWriter.to(sha256);
        VerdictDocument.writeDigested(verdict, writer);
        writer.finish();
        return text(sha256);
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK provides SHA-256", e);
        }
    }

    /** {@code sha256:} and the hex of what {@code sha256} has been given. */
    static String text(MessageDigest sha256) {
        return PREFIX + HexFormat.of().formatHex(sha256.digest());
    }
}
