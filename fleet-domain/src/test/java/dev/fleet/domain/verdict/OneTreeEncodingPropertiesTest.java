package dev.fleet.domain.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;

import dev.fleet.domain.Snapshot;
import dev.fleet.domain.verdict.encoding.CanonicalJson;
import dev.fleet.domain.verdict.encoding.Json;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The verdict's one tree gives, byte for byte, the JSON and the digest the streaming writer gave, on
 * thousands of random verdicts, most of them full of hostile text.
 */
class OneTreeEncodingPropertiesTest {

    @Test
    void theTreesJsonAndDigestAreTheWritersOnRandomFleets() {
        AtomicInteger compared = new AtomicInteger();
        qt().withExamples(2_000).forAll(FleetGen.fleets()).checkAssert(snapshot -> {
            assertSame(snapshot);
            compared.incrementAndGet();
        });
        assertEquals(2_000, compared.get());
    }

    @Test
    void theTreesJsonAndDigestAreTheWritersWhateverTheText() {
        AtomicInteger compared = new AtomicInteger();
        qt().withExamples(3_000).forAll(HostileFleets.fleets()).checkAssert(snapshot -> {
            assertSame(snapshot);
            compared.incrementAndGet();
        });
        assertEquals(3_000, compared.get());
    }

    /**
     * Five hundred known verdicts, random and hostile, whose digest and JSON the streaming writer
     * recorded ({@link GoldenVerdicts}): the one tree gives them still.
     */
    @Test
    void theEncodingsOfFiveHundredRecordedVerdictsHaveNotMoved() throws IOException {
        List<String> golden = GoldenVerdicts.lines();
        List<Verdict> verdicts = GoldenVerdicts.verdicts();
        assertEquals(GoldenVerdicts.PLAIN + GoldenVerdicts.HOSTILE, golden.size());
        assertEquals(golden.size(), verdicts.size());
        for (int i = 0; i < golden.size(); i++) {
            Verdict verdict = verdicts.get(i);
            Json.Obj tree = VerdictTree.of(verdict);
            assertEquals(golden.get(i), GoldenVerdicts.line(VerdictDigest.ofTree(tree), CanonicalJson.encode(tree)),
                    "verdict " + i);
            assertEquals(golden.get(i), GoldenVerdicts.line(verdict.verdictDigest(), VerdictDocument.canonicalJson(verdict)),
                    "verdict " + i);
        }
    }

    private static void assertSame(Snapshot snapshot) {
        Verdict verdict = FleetClassifier.classify(snapshot);
        Json.Obj tree = VerdictTree.of(verdict);
        assertEquals(VerdictDocument.canonicalJson(verdict), CanonicalJson.encode(tree));
        assertEquals(VerdictDocument.digestOf(verdict), VerdictDigest.ofTree(tree));
        assertEquals(verdict.verdictDigest(), VerdictDigest.ofTree(tree));
        assertEquals(VerdictDocument.toTree(verdict), tree.plain());
    }
}
