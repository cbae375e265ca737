package dev.fleet.mcp.jsonrpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * Ids are compared by value (the contract, §12.1): two number ids meet exactly when their values are
 * equal, however each is spelt, and keying one never expands it.
 */
class JsonRpcIdsTest {

    @Test
    void twoNumberIdsMeetExactlyWhenTheirValuesAreEqual() {
        qt().withExamples(2000).forAll(numbers(), numbers()).checkAssert((first, second) -> {
            boolean equal = new BigDecimal(first.get(0)).compareTo(new BigDecimal(second.get(0))) == 0;
            assertEquals(equal, JsonRpcIds.numberKey(first.get(0)).equals(JsonRpcIds.numberKey(second.get(0))),
                    first + " and " + second);
            assertEquals(JsonRpcIds.numberKey(first.get(0)), JsonRpcIds.numberKey(first.get(1)),
                    "one value, two spellings: " + first);
        });
    }

    /** A number in two of its spellings, near others often enough that equal values come up. */
    private static Gen<List<String>> numbers() {
        return longs().between(-99_999, 99_999).zip(integers().between(-30, 30), integers().between(0, 4),
                (unscaled, scale, spelling) -> List.of(spelt(BigInteger.valueOf(unscaled), scale, spelling),
                        spelt(BigInteger.valueOf(unscaled), scale, (spelling + 1) % 5)));
    }

    @Test
    void numbersBeyondADoubleAndALongAreTheirOwnIds() {
        assertEquals(JsonRpcIds.numberKey("1e3"), JsonRpcIds.numberKey("1000"));
        assertEquals(JsonRpcIds.numberKey("1.0"), JsonRpcIds.numberKey("1"));
        assertEquals(JsonRpcIds.numberKey("-0.0"), JsonRpcIds.numberKey("0"));
        assertNotEquals(JsonRpcIds.numberKey("12345678901234567890"), JsonRpcIds.numberKey("12345678901234567891"));
        assertNotEquals(JsonRpcIds.numberKey("1"), JsonRpcIds.numberKey("1.000000000000000000001"));
        assertNotEquals(JsonRpcIds.numberKey("1"), JsonRpcIds.numberKey("-1"));
        assertNotEquals(JsonRpcIds.numberKey("1"), JsonRpcIds.stringKey("1"));
        assertEquals(JsonRpcIds.numberKey("1e999999999"), JsonRpcIds.numberKey("10e999999998"));
        for (String huge : List.of("1e999999999", "1E+99999999999999999999999", "-5e-99999999999999999999999")) {
            assertTrue(JsonRpcIds.numberKey(huge).length() < 64, huge + " is never expanded");
        }
        assertTrue(JsonRpcIds.stringKey("x".repeat(1_000_000)).length() < 100, "a long id is kept as a digest");
    }

    @Test
    void numbersWithExponentsBeyondALongMeetExactlyWhenTheirValuesAreEqual() {
        BigInteger huge = BigInteger.TEN.pow(19);
        qt().withExamples(2000).forAll(longs().between(-999, 999), longs().between(-2_000, 2_000),
                integers().between(0, 3), integers().between(0, 3)).checkAssert((unscaled, offset, first, second) -> {
                    BigInteger exponent = (offset % 2 == 0 ? huge : huge.negate()).add(BigInteger.valueOf(offset / 2));
                    String one = hugelySpelt(unscaled, exponent, first);
                    String other = hugelySpelt(unscaled, exponent, second);
                    assertEquals(JsonRpcIds.numberKey(one), JsonRpcIds.numberKey(other), one + " and " + other);
                    String next = hugelySpelt(unscaled, exponent.add(BigInteger.ONE), second);
                    assertEquals(unscaled == 0, JsonRpcIds.numberKey(one).equals(JsonRpcIds.numberKey(next)),
                            one + " and " + next);
                });
        assertEquals(JsonRpcIds.numberKey("1e100000000000000000"), JsonRpcIds.numberKey("10e99999999999999999"));
        assertEquals(JsonRpcIds.numberKey("1e-100000000000000000"), JsonRpcIds.numberKey("0.1e-99999999999999999"));
        assertEquals(JsonRpcIds.numberKey("1e999999999999999999"), JsonRpcIds.numberKey("0.1e1000000000000000000"));
        assertNotEquals(JsonRpcIds.numberKey("1e100000000000000000"), JsonRpcIds.numberKey("1e100000000000000001"));
    }

    /** {@code unscaled × 10^exponent} in one of four spellings that move digits between the two. */
    private static String hugelySpelt(long unscaled, BigInteger exponent, int spelling) {
        return switch (spelling) {
            case 0 -> unscaled + "e" + exponent;
            case 1 -> unscaled + "000E" + exponent.subtract(BigInteger.valueOf(3));
            case 2 -> unscaled + ".00e" + (exponent.signum() < 0 ? "" : "+") + exponent;
            default -> (unscaled < 0 ? "-0.00" + -unscaled : "0.00" + unscaled) + "e"
                    + exponent.add(BigInteger.valueOf(2 + Long.toString(Math.abs(unscaled)).length()));
        };
    }

    @Test
    void longStringIdsThatDifferOnlyInALoneSurrogateAreDifferentIds() {
        String id = "A".repeat(300);
        List<String> keys = List.of(JsonRpcIds.stringKey(id + "?"), JsonRpcIds.stringKey(id + "\ud800"),
                JsonRpcIds.stringKey(id + "\udfff"), JsonRpcIds.stringKey(id + "\ufffd"));
        assertEquals(keys.size(), keys.stream().distinct().count(), keys.toString());
        assertEquals(JsonRpcIds.stringKey(id + "\udfff"), JsonRpcIds.stringKey(id + "\udfff"));
    }

    /** {@code unscaled × 10^-scale} in one of five JSON spellings. */
    private static String spelt(BigInteger unscaled, int scale, int spelling) {
        BigDecimal value = new BigDecimal(unscaled, scale);
        return switch (spelling) {
            case 0 -> value.toString().replace("E+", "e");
            case 1 -> value.toPlainString();
            case 2 -> unscaled + "E" + -scale;
            case 3 -> unscaled + "000e" + (-scale - 3);
            default -> unscaled + ".000E" + (scale <= 0 ? "+" : "") + -scale;
        };
    }
}
