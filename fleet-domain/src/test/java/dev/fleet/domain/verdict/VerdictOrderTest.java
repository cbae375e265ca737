package dev.fleet.domain.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fleet.domain.verdict.encoding.CanonicalJson;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The order is total over everything an entry shows: instances tied on namespace, profile, pid and
 * runtime_id (which no real registry can hold, but another tool's table can) sort to the same
 * encodings whatever order they come in, and two that compare equal encode to the same bytes.
 */
class VerdictOrderTest {

    @Test
    void tiedInstancesSortToTheSameEncodingsInAnyOrderAndEqualOnesEncodeAlike() {
        Random random = new Random(6);
        String longText = "c".repeat(OutsideText.MAX_CHARS);
        for (int round = 0; round < 2_000; round++) {
            List<Instance> instances = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                instances.add(new Instance("rt", "ns", "p", pick(random, "a", "a b", null, longText + "x", longText + "y"),
                        7, pick(random, "c", "c!", null), pick(random, "s", null), pick(random, "h", "h\u0000", null),
                        pick(random, "stdio", "http"), pick(random, "x", "x\"", "x\\"),
                        Instant.ofEpochSecond(random.nextInt(3)), pick(random, Instant.EPOCH, null),
                        pick(random, Instant.ofEpochSecond(5), null), pick(random, Instant.ofEpochSecond(1, 500), null),
                        pick(random, 8L, 9L, null), pick(random, "srv --token ***", longText + "z", null),
                        pick(random, List.of(), List.of(8L), List.of(8L, 10L), List.of(10L))));
            }
            List<Instance> shuffled = new ArrayList<>(instances);
            Collections.shuffle(shuffled, random);

            assertEquals(encodings(instances.stream().sorted(VerdictOrder.INSTANCES).toList()),
                    encodings(shuffled.stream().sorted(VerdictOrder.INSTANCES).toList()));
            for (Instance a : instances) {
                for (Instance b : instances) {
                    if (VerdictOrder.INSTANCES.compare(a, b) == 0) {
                        assertEquals(encoding(a), encoding(b), "tied in the order, so they must show alike");
                    }
                }
            }
        }
    }

    private static List<String> encodings(List<Instance> instances) {
        return instances.stream().map(VerdictOrderTest::encoding).toList();
    }

    private static String encoding(Instance instance) {
        return CanonicalJson.encode(VerdictDocument.instance(instance));
    }

    @SafeVarargs
    private static <T> T pick(Random random, T... choices) {
        return choices[random.nextInt(choices.length)];
    }
}
