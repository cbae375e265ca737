package dev.fleet.domain.verdict;

/**
 * {@code verdict_digest}: SHA-256 over the canonical encoding of every verdict field except
 * {@code observation}, the digest itself and every {@code last_heartbeat_at}, so two members
 * answering about an unchanged fleet return the same digest whoever renders it and whenever,
 * within the fleet's life, each answers.
 *
 * <p>It is taken one way only: {@link VerdictDocument} writes the document to a {@link
 * dev.fleet.domain.verdict.encoding.CanonicalWriter} made {@code forDigest}, which leaves out what
 * the document marks undigested (each heartbeat) and hands its bytes straight to SHA-256, chunk by
 * chunk, without a tree, a String or the text's byte array. The text an adapter shows is a second
 * walk of the same document ({@link VerdictDocument#canonicalJson}), which writes this digest in.
 */
public final class VerdictDigest {

    private VerdictDigest() {
    }

    /** The digest of {@code verdict} (its own {@code verdictDigest} is not read). */
    public static String of(Verdict verdict) {
        return VerdictDocument.digestOf(verdict);
    }
}
