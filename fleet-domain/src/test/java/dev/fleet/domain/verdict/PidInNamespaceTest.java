package dev.fleet.domain.verdict;

import dev.fleet.testing.RecordMethods;
import org.junit.jupiter.api.Test;

class PidInNamespaceTest {

    /** Its equals and hashCode are written out (for a cold JVM): they still compare the pid and the namespace. */
    @Test
    void comparesEveryComponent() {
        RecordMethods.assertCoverEveryComponent(PidInNamespace.class);
    }
}
