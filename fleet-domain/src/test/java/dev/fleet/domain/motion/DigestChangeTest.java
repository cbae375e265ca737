package dev.fleet.domain.motion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DigestChangeTest {

    private static final String A = "sha256:" + "a".repeat(64);
    private static final String B = "sha256:" + "b".repeat(64);

    @Test
    void theFirstDigestIsAChangeFromNothingAndTheSameDigestNeverIs() {
        DigestChange change = new DigestChange();
        assertFalse(change.hasBaseline());
        assertTrue(change.isChange(A));
        assertTrue(change.hasBaseline());
        assertFalse(change.isChange(A));
        assertFalse(change.isChange(A));
        assertTrue(change.isChange(B));
        assertTrue(change.isChange(A), "going back is a change too");
        assertEquals(A, change.last());
    }

    @Test
    void resetMakesTheNextDigestAFirstLook() {
        DigestChange change = new DigestChange();
        change.isChange(A);
        change.reset();
        assertFalse(change.hasBaseline());
        assertNull(change.last());
        assertTrue(change.isChange(A));
    }
}
