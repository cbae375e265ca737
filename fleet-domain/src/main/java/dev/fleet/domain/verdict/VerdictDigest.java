package dev.fleet.domain.verdict;

import dev.fleet.domain.verdict.encoding.CanonicalJson;
import dev.fleet.domain.verdict.encoding.Json;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Set;

/**
 * {@code verdict_digest}: SHA-256 over the canonical encoding of every verdict field except
 * {@code observation}, the digest itself and every {@code last_heartbeat_at}, so two members
 * answering about an unchanged fleet return the same digest whoever renders it and whenever,
 * within the fleet's life, each answers. It is taken from the verdict's one tree ({@link
 * VerdictDocument}), the same the JSON is the encoding of, those fields left out.
 */
public final class VerdictDigest {

    /** What the digest leaves out, at any depth: the document's two last fields and each heartbeat. */
    private static final Set<String> UNDIGESTED = Set.of("observation", "verdict_digest", "last_heartbeat_at");

    private VerdictDigest() {
    }

    /** The digest of {@code verdict} (its own {@code verdictDigest} is not read). */
    public static String of(Verdict verdict) {
        return ofTree(VerdictDocument.tree(verdict));
    }

    /**
     * The digest of a verdict's tree. An unpaired surrogate in a string is digested as {@code '?'},
     * as {@code String.getBytes(UTF_8)} encodes it.
     */
    static String ofTree(Json.Obj document) {
        byte[] digested = CanonicalJson.encode(document.withoutEverywhere(UNDIGESTED)).getBytes(StandardCharsets.UTF_8);
        try {
            return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(digested));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK provides SHA-256", e);
        }
    }
}
