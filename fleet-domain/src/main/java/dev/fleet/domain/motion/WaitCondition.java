package dev.fleet.domain.motion;

import java.util.Objects;

/**
 * What {@code fleet wait --for} waits for: {@code gate}, a verdict with the mutation gate satisfied;
 * {@code change}, a digest other than a given one or, without it, other than the first verdict's.
 * Not thread-safe: one waiter owns it.
 */
public final class WaitCondition {

    /** The conditions, as {@code --for} names them. */
    public enum Kind { GATE, CHANGE }

    private final Kind kind;
    private String from;

    private WaitCondition(Kind kind, String from) {
        this.kind = Objects.requireNonNull(kind, "kind");
        this.from = from;
    }

    public static WaitCondition gate() {
        return new WaitCondition(Kind.GATE, null);
    }

    /**
     * @param from the digest to move away from ({@code sha256:<64 hex>}), or null for the first
     *     verdict's digest
     * @throws IllegalArgumentException when {@code from} is not a verdict digest
     */
    public static WaitCondition change(String from) {
        if (from != null && !isDigest(from)) {
            throw new IllegalArgumentException("--from must be a verdict digest, sha256: and 64 lower-case hex "
                    + "digits, got '" + (from.length() > 80 ? from.substring(0, 80) + "…" : from) + "'");
        }
        return new WaitCondition(Kind.CHANGE, from);
    }

    public Kind kind() {
        return kind;
    }

    /**
     * Whether the verdict of this look satisfies the condition; for {@code change} without a digest,
     * the first look sets the digest to move away from.
     */
    public boolean holds(boolean gateSatisfied, String digest) {
        if (kind == Kind.GATE) {
            return gateSatisfied;
        }
        if (from == null) {
            from = digest;
            return false;
        }
        return !from.equals(digest);
    }

    /** {@code sha256:} and 64 lower-case hex digits, as {@code verdict_digest} is written. */
    public static boolean isDigest(String text) {
        if (text.length() != 71 || !text.startsWith("sha256:")) {
            return false;
        }
        for (int i = 7; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }
}
