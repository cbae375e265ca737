package dev.fleet.domain;

import dev.fleet.testing.RecordMethods;
import org.junit.jupiter.api.Test;

/** The domain's records whose equals and hashCode are written out (for a cold JVM) cover every component. */
class HandWrittenRecordMethodsTest {

    @Test
    void bindingComparesEveryComponent() {
        RecordMethods.assertCoverEveryComponent(Binding.class);
    }

    @Test
    void rosterMemberComparesEveryComponent() {
        RecordMethods.assertCoverEveryComponent(RosterMember.class);
    }
}
