package dev.fleet.domain.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fleet.domain.Scenario;
import dev.fleet.domain.verdict.encoding.CanonicalJson;
import dev.fleet.domain.verdict.encoding.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The canonical encoding, by example: its escapes, its numbers, and a known fleet's digest. */
class CanonicalJsonTest {

    /** DEL and C1 too: ESC's 8-bit twin U+009B starts a terminal control sequence as ESC [ does. */
    @Test
    void controlCharactersAreEscaped() {
        assertEquals("{\"a\":\"\\u0000\\u001f\\\"\\\\\\u007f\\u0085\\u009b[2J\u00a0\"}",
                CanonicalJson.encode(Map.of("a", "\u0000\u001f\"\\\u007f\u0085\u009b[2J\u00a0")));
        assertEquals(VerdictDocument.canonicalJson(Scenario.healthyFive().classify()),
                CanonicalJson.encode(VerdictDocument.toTree(Scenario.healthyFive().classify())));
    }

    @Test
    void theTextIsTheReferenceEncodingWhateverTheCharacters() {
        List<String> texts = new ArrayList<>(List.of("", "plain", "\u0000\u001f\"\\", "é ß ÿ", "€", "𝄞", "\ud834",
                "\udd1e\ud834", "a\u2028b", "\u202e\u2066"));
        texts.add("y".repeat(100_000) + "€" + "z".repeat(100_000));
        for (String text : texts) {
            assertEquals(ReferenceJson.encode(List.of(text, text)), CanonicalJson.encode(List.of(text, text)),
                    text.length() > 40 ? "text of " + text.length() + " chars" : text);
        }
    }

    /** An unpaired surrogate stays in the text; the digest takes the text's UTF-8, where it is '?'. */
    @Test
    void anUnpairedSurrogateIsKeptInTheTextAndDigestedAsAQuestionMark() {
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("lone", "a\ud834b");
        assertEquals("{\"lone\":\"a\ud834b\"}", CanonicalJson.encode(tree));
        assertEquals(ReferenceJson.sha256("{\"lone\":\"a?b\"}"), ReferenceJson.sha256(CanonicalJson.encode(tree)));
    }

    @Test
    void aJsonValueAndItsPlainTreeEncodeAlike() {
        Json.Obj value = new Json.Members().put("n", 1).put("l", 2L).put("s", "x").put("b", (Boolean) null)
                .put("a", Json.array(List.of("p", "q"), Json::of)).build();
        assertEquals("{\"n\":1,\"l\":2,\"s\":\"x\",\"b\":null,\"a\":[\"p\",\"q\"]}", CanonicalJson.encode(value));
        assertEquals(CanonicalJson.encode(value), CanonicalJson.encode(value.plain()));
        assertEquals(value, Json.fromPlain(value.plain()));
    }

    @Test
    void numbersAreWrittenAsLongToStringWritesThem() {
        assertEquals("[0,-1,7,-2147483648,2147483647,-9223372036854775808,9223372036854775807,1000000]",
                CanonicalJson.encode(List.of(0, -1, 7L, Integer.MIN_VALUE, Integer.MAX_VALUE, Long.MIN_VALUE,
                        Long.MAX_VALUE, 1_000_000L)));
    }

    /**
     * Computed by the tree-and-String encoder of the first versions: the digest must never move except
     * when the contract adds a field (last: each instance's {@code server_pid}, {@code server_command} and
     * {@code served_pids}; before them {@code orphaned_instances} and {@code remote_instances}, {@code []}
     * here, and the observation's {@code host_id}; before them {@code omitted_entries}).
     */
    @Test
    void theDigestOfAKnownFleetHasNotMoved() {
        Verdict verdict = Scenario.healthyFive().classify();
        assertEquals("sha256:cda99cc231160abaaafa739ee8d354026f9055019b4a1938707ea0a85895ec5b", verdict.verdictDigest());
        assertEquals(3766 + ",\"omitted_entries\":{}".length() + ",\"orphaned_instances\":[]".length()
                + ",\"remote_instances\":[]".length() + ",\"host_id\":null".length()
                + 5 * ",\"server_pid\":null,\"server_command\":null,\"served_pids\":[]".length(),
                VerdictDocument.canonicalJson(verdict).length());
    }
}
