package dev.fleet.domain.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ParentAtStartTest {

    private static final Instant STARTED = Instant.parse("2026-07-28T02:00:00.120Z");

    @Test
    void aParentThatIsStillTheParentIsTheClientWithItsStart() {
        ParentAtStart decided = ParentAtStart.decide(OptionalLong.of(4_242), OptionalLong.of(4_242), STARTED);

        assertEquals(new ParentAtStart.Client(new ParentProcess(4_242, STARTED)), decided);
        assertEquals(new ParentProcess(4_242, STARTED), decided.recorded());
    }

    @Test
    void aParentThatChangedSinceTheFirstLookIsAClientGoneAndNeverRecorded() {
        // The launcher saw the client; the JVM, started later, finds the subreaper that adopted it.
        ParentAtStart decided = ParentAtStart.decide(OptionalLong.of(4_242), OptionalLong.of(17), STARTED);

        assertEquals(new ParentAtStart.Gone(4_242, 17), decided);
        assertNull(decided.recorded());
        assertEquals("client gone: parent pid 4242 exited while this server started (this server now has parent "
                + "pid 17)", ((ParentAtStart.Gone) decided).reason());
    }

    @Test
    void pidOneIsNeverAClient() {
        for (OptionalLong now : new OptionalLong[] {OptionalLong.of(1), OptionalLong.empty()}) {
            ParentAtStart decided = ParentAtStart.decide(OptionalLong.of(1), now, STARTED);

            assertEquals(new ParentAtStart.Gone(1, 1), decided);
            assertNull(decided.recorded());
            assertTrue(((ParentAtStart.Gone) decided).reason().startsWith("no client: this server's parent was pid 1"));
        }
    }

    @Test
    void noParentAtTheFirstLookOrNoneReadableNowTellsNothing() {
        // No parent in this pid namespace (the launcher's $PPID is 0 in a container's first process).
        assertEquals(new ParentAtStart.Unknown(), ParentAtStart.decide(OptionalLong.empty(), OptionalLong.of(9), null));
        assertEquals(new ParentAtStart.Unknown(), ParentAtStart.decide(OptionalLong.of(0), OptionalLong.of(9), null));
        assertEquals(new ParentAtStart.Unknown(), ParentAtStart.decide(OptionalLong.of(9), OptionalLong.empty(), null));
        assertNull(new ParentAtStart.Unknown().recorded());
    }
}
