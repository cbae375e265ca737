package dev.fleet.domain.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fleet.domain.verdict.encoding.CanonicalJson;
import dev.fleet.domain.verdict.encoding.TreeSink;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The tie-breaks compare fields as the canonical JSON shows them, without encoding: the order must
 * be the one the entries' encodings give, which is how ties were broken before (by encoding each
 * entry inside the comparator).
 */
class VerdictOrderTest {

    /** The characters where a token's order and the text's natural order part ways, and some that are plain. */
    private static final String ALPHABET = " !\"#\\/\u0000\u001f\u007f\u0085\u009fa b\u00e9\u20ac\ud834\udd1e~";

    @Test
    void stringsCompareAsTheirCanonicalTokensDo() {
        Random random = new Random(22);
        for (int i = 0; i < 200_000; i++) {
            String a = randomText(random);
            String b = random.nextInt(4) == 0 ? a + randomText(random) : randomText(random);
            assertEquals(Integer.signum(CanonicalJson.encode(a).compareTo(CanonicalJson.encode(b))),
                    Integer.signum(WrittenOrder.compare(a, b)), () -> "[" + a + "] vs [" + b + "]");
            assertEquals(Integer.signum(CanonicalJson.encode(b).compareTo(CanonicalJson.encode(a))),
                    Integer.signum(WrittenOrder.compare(b, a)), () -> "[" + b + "] vs [" + a + "]");
        }
        assertEquals(0, WrittenOrder.compare("a\"b", "a\"b"));
    }

    /** Instances equal in namespace, profile, pid and runtime_id: ordered as their encodings order them. */
    @Test
    void tiedInstancesAreInTheOrderOfTheirEncodings() {
        Comparator<Instance> byEncoding = Comparator.comparing(VerdictOrderTest::encoding);
        Random random = new Random(6);
        String longText = "c".repeat(OutsideText.MAX_CHARS);
        for (int round = 0; round < 2_000; round++) {
            List<Instance> instances = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                instances.add(new Instance("rt", "ns", "p", pick(random, "a", "a b", null, longText + "x", longText + "y"),
                        7, pick(random, "c", "c!", null), pick(random, "s", null), pick(random, "h", "h\u0000", null),
                        pick(random, "stdio", "http"), pick(random, "x", "x\"", "x\\"),
                        Instant.ofEpochSecond(random.nextInt(3)), pick(random, Instant.EPOCH, null),
                        pick(random, Instant.ofEpochSecond(5), null), pick(random, Instant.ofEpochSecond(1, 500), null)));
            }
            List<String> expected = instances.stream().sorted(byEncoding).map(VerdictOrderTest::encoding).toList();
            List<Instance> actual = instances.stream().sorted(VerdictOrder.INSTANCES).toList();
            assertEquals(expected, actual.stream().map(VerdictOrderTest::encoding).toList());
        }
    }

    private static String encoding(Instance instance) {
        TreeSink tree = new TreeSink();
        VerdictEntries.writeInstance(instance, tree);
        return CanonicalJson.encode(tree.root());
    }

    @SafeVarargs
    private static <T> T pick(Random random, T... choices) {
        return choices[random.nextInt(choices.length)];
    }

    private static String randomText(Random random) {
        if (random.nextInt(20) == 0) {
            return null;
        }
        StringBuilder text = new StringBuilder();
        int length = random.nextInt(5);
        for (int i = 0; i < length; i++) {
            text.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return text.toString();
    }
}
