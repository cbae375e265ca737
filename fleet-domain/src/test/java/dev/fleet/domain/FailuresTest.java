package dev.fleet.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

class FailuresTest {

    @Test
    void aMessageBecomesItsFirstLineWithText() {
        assertEquals("disk full", Failures.oneLine(new IOException("\n  \u00a0\n  disk full  \n\tat a.B.c(B.java:1)")));
    }

    @Test
    void aFailureWithoutTextIsDescribedByTheFirstCauseWithTextElseByItsKind() {
        assertEquals("locked", Failures.oneLine(new RuntimeException(null, new IOException("locked"))));
        assertEquals("IllegalStateException", Failures.oneLine(new IllegalStateException(" \n ")));
    }

    @Test
    void withKindNamesTheExceptionBeforeItsLine() {
        assertEquals("IOException: gone", Failures.withKind(new IOException("gone\nmore")));
        assertEquals("IOException", Failures.withKind(new IOException()));
    }

    @Test
    void theInnermostCauseIsTheLastOfTheChain() {
        IOException root = new IOException("root");
        assertSame(root, Failures.innermost(new RuntimeException(new UncheckedIOException(root))));
        assertSame(root, Failures.innermost(root));
    }

    @Test
    void aChainThatLoopsBackEndsAndIsReadOnce() {
        Exception first = new Exception();
        Exception second = new Exception(null, first);
        first.initCause(second);
        assertEquals(2, Failures.chain(first).size());
        assertSame(second, Failures.innermost(first));
        assertEquals("Exception", Failures.oneLine(first));
    }

    @Test
    void aVeryLongChainIsFollowedOnlySoFar() {
        Throwable failure = new IOException("deep");
        for (int i = 0; i < 100; i++) {
            failure = new RuntimeException(null, failure);
        }
        assertEquals(16, Failures.chain(failure).size());
        assertEquals("RuntimeException", Failures.oneLine(failure));
    }

    @Test
    void aLibrarysNamesOfItsClassesAndFeaturesAreLeftOut() {
        assertEquals("Number value length (5000) exceeds the maximum allowed (1000)", Failures.withoutCodeNames(
                "Number value length (5000) exceeds the maximum allowed (1000, from "
                        + "`StreamReadConstraints.getMaxNumberLength()`)"));
        assertEquals("Non-standard token 'NaN'", Failures.withoutCodeNames(
                "Non-standard token 'NaN': enable `JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS` to allow"));
        assertEquals("Unexpected end-of-input: expected close marker for Object", Failures.withoutCodeNames(
                "Unexpected end-of-input: expected close marker for Object (start marker at [Source: REDACTED "
                        + "(`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); line: 1, column: 1])"));
        assertEquals("Duplicate field 'a`b c`'", Failures.withoutCodeNames("Duplicate field 'a`b c`'"),
                "a client's text between backticks is no code name");
        assertEquals("Unexpected character ('x' (code 120))",
                Failures.withoutCodeNames("Unexpected character ('x' (code 120))"), "a message without names stays");
    }
}
