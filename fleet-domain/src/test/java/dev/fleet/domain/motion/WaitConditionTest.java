package dev.fleet.domain.motion;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WaitConditionTest {

    private static final String A = "sha256:" + "a".repeat(64);
    private static final String B = "sha256:" + "b".repeat(64);

    @Test
    void gateHoldsExactlyWhenTheGateIsSatisfied() {
        WaitCondition gate = WaitCondition.gate();
        assertFalse(gate.holds(false, A));
        assertTrue(gate.holds(true, A));
        assertFalse(gate.holds(false, B));
    }

    @Test
    void changeWithoutFromMovesAwayFromTheFirstVerdict() {
        WaitCondition change = WaitCondition.change(null);
        assertFalse(change.holds(true, A), "the first look is the baseline");
        assertFalse(change.holds(false, A));
        assertTrue(change.holds(true, B));
    }

    @Test
    void changeFromADigestHoldsAtOnceWhenTheFirstVerdictDiffers() {
        assertTrue(WaitCondition.change(A).holds(false, B));
        WaitCondition change = WaitCondition.change(A);
        assertFalse(change.holds(false, A));
        assertTrue(change.holds(false, B));
    }

    @Test
    void fromMustBeAVerdictDigest() {
        for (String bad : new String[] {"", "sha256:", "a".repeat(64), "sha256:" + "A".repeat(64),
            "sha256:" + "a".repeat(63), "sha1:" + "a".repeat(66), "sha256:" + "g".repeat(64)}) {
            assertThrows(IllegalArgumentException.class, () -> WaitCondition.change(bad), bad);
        }
    }
}
