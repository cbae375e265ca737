package dev.fleet.domain.motion;

/**
 * The change detector: a change is a verdict digest other than the last one seen. Heartbeats are
 * outside the digest (docs/CONTRACT.md), so they never make one. The first digest seen is a change
 * from nothing: {@link #isChange} says so, and {@link #hasBaseline} tells a caller that only wants
 * changes after a first look (a subscription) to let it pass. Not thread-safe: one watcher owns it.
 */
public final class DigestChange {

    private String last;

    /** Records {@code digest}; true when it differs from the previous one (always for the first). */
    public boolean isChange(String digest) {
        boolean changed = last == null || !last.equals(digest);
        last = digest;
        return changed;
    }

    /** Whether a digest has been seen since this detector was made or {@link #reset}. */
    public boolean hasBaseline() {
        return last != null;
    }

    /** The last digest seen, or null. */
    public String last() {
        return last;
    }

    /** Forgets the last digest: the next one is a first look again. */
    public void reset() {
        last = null;
    }
}
