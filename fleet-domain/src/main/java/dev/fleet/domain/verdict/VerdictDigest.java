package dev.fleet.domain.verdict;

/**
 * {@code verdict_digest}: SHA-256 over the canonical encoding of every verdict field except
 * {@code observation}, the digest itself and every {@code last_heartbeat_at}, so two members
 * answering about an unchanged fleet return the same digest whoever renders it and whenever,
 * within the fleet's life, each answers.
 *
 * <p>It is taken one way only: {@link VerdictDocument} writes the document to a {@link
 * dev.fleet.domain.verdict.encoding.CanonicalWriter} that marks the heartbeats as undigested and
 * digests its own bytes when it reaches the digest's field. Here the bytes go straight into the
 * digest, chunk by chunk, without a tree, a String or the text's byte array; {@link
 * VerdictDocument#seal} keeps them as the text as well.
 */
public final class VerdictDigest {

    private VerdictDigest() {
    }

    /** The digest of {@code verdict} (its own {@code verdictDigest} is not read). */
    public static String of(Verdict verdict) {
        return VerdictDocument.digestOf(verdict);
    }
}
