package dev.fleet.registry.sqlite;

import dev.fleet.testing.RecordMethods;
import org.junit.jupiter.api.Test;

class FingerprintMethodsTest {

    /** Its equals and hashCode are written out (for a cold JVM): they still compare the CRC and the size. */
    @Test
    void comparesEveryComponent() {
        RecordMethods.assertCoverEveryComponent(NativeLibraryCopies.Fingerprint.class);
    }
}
