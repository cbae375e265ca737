package dev.fleet.domain.verdict.encoding;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * The digest of a {@link CanonicalWriter}'s bytes: SHA-256 over what the writer wrote, taken in as
 * it comes (whenever its buffer spills, and once more at the digest's place), but for the edits
 * marked while writing: an undigested range is skipped, and the three bytes the text keeps for an
 * unpaired surrogate are {@code '?'}, as {@code String.getBytes(UTF_8)} makes it. Positions are
 * offsets into the writer's buffer, made offsets into the whole stream here.
 */
final class DigestTap {

    static final String PREFIX = "sha256:";
    private static final long OPEN = Long.MAX_VALUE;
    private static final long SKIP = -1;

    private final MessageDigest sha256 = newSha256();
    /** Edits as triples: from, to (exclusive), and the byte written instead or {@link #SKIP}; in stream order. */
    private long[] edits = new long[48];
    private int editsEnd;
    /** The first edit not yet wholly applied. */
    private int next;
    /** Stream offset of the buffer's first byte: what has been taken in before. */
    private long taken;
    private boolean skipping;
    private String digest;

    void beginSkip(int position) {
        add(taken + position, OPEN, SKIP);
        skipping = true;
    }

    void endSkip(int position) {
        if (digest == null) {
            edits[editsEnd - 2] = taken + position;
        }
        skipping = false;
    }

    /** Inside a skipped range it is skipped anyway. */
    void replaceSurrogate(int position) {
        if (!skipping) {
            add(taken + position, taken + position + 3, '?');
        }
    }

    /** Takes in the buffer's first {@code length} bytes, which come next in the stream. */
    void take(byte[] bytes, int length) {
        if (digest != null) {
            return;
        }
        long base = taken;
        long end = base + length;
        long cursor = base;
        while (next < editsEnd && edits[next] < end) {
            long from = edits[next];
            long to = edits[next + 1];
            if (from > cursor) {
                sha256.update(bytes, (int) (cursor - base), (int) (from - cursor));
                cursor = from;
            }
            if (edits[next + 2] != SKIP && from >= base) {
                sha256.update((byte) edits[next + 2]);
            }
            if (to > end) {
                cursor = end;
                break;
            }
            cursor = Math.max(cursor, to);
            next += 3;
        }
        if (cursor < end) {
            sha256.update(bytes, (int) (cursor - base), (int) (end - cursor));
        }
        taken = end;
    }

    /** {@code sha256:} and the hex of the stream up to the buffer's {@code length} bytes, closed with {@code '}'}. */
    String digestOf(byte[] bytes, int length) {
        if (digest == null) {
            take(bytes, length);
            sha256.update((byte) '}');
            digest = PREFIX + HexFormat.of().formatHex(sha256.digest());
        }
        return digest;
    }

    private void add(long from, long to, long replacement) {
        if (digest != null) {
            return;
        }
        if (editsEnd == edits.length) {
            edits = Arrays.copyOf(edits, editsEnd * 2);
        }
        edits[editsEnd++] = from;
        edits[editsEnd++] = to;
        edits[editsEnd++] = replacement;
    }

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK provides SHA-256", e);
        }
    }
}
