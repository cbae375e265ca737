package dev.fleet.domain.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;

import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Scenario;
import dev.fleet.domain.Snapshot;
import dev.fleet.domain.verdict.encoding.CanonicalJson;
import dev.fleet.domain.verdict.encoding.CanonicalWriter;
import dev.fleet.domain.verdict.encoding.DocumentSink;
import dev.fleet.domain.verdict.encoding.FieldName;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The verdict's canonical JSON and its digest are written straight from the verdict, without the
 * tree; they must be exactly the tree's encoding and the SHA-256 of its UTF-8 bytes, wherever the
 * writer's 64 KB chunks end.
 */
class CanonicalWriterTest {

    /** The writer's buffer, handed to the digest whenever it fills when no text is kept. */
    private static final int CHUNK = 65_536;

    @Test
    void theJsonWrittenDirectlyIsTheTreesEncoding() {
        qt().forAll(FleetGen.fleets()).checkAssert(CanonicalWriterTest::assertTextAndDigestAreTheTrees);
    }

    /** The JSON written directly is the tree's encoding, and the digest that of the tree without what it leaves out. */
    private static void assertTextAndDigestAreTheTrees(Snapshot snapshot) {
        Verdict verdict = FleetClassifier.classify(snapshot);
        assertEquals(CanonicalJson.encode(VerdictDocument.toTree(verdict)), VerdictDocument.canonicalJson(verdict));
        assertEquals(sha256(CanonicalJson.encode(Digested.strip(VerdictDocument.toTree(verdict)))),
                verdict.verdictDigest());
    }

    /**
     * The same, with every kind of character the writer treats apart in the registry's texts: wide
     * ones, surrogate pairs, unpaired surrogates (kept in the text, {@code '?'} in the digest),
     * quotes and control characters, in members, in the duplicates copied from them and elsewhere.
     */
    @Test
    void theJsonAndTheDigestAreTheTreesWhateverTheCharactersOfTheRegistry() {
        List<String> odd = List.of("plain", "é ÿ", "€\u2028", "𝄞", "lone \ud834", "\udd1e", "q\"b\\t\t\u0000", "x\ud834");
        qt().forAll(FleetGen.fleets()).checkAssert(snapshot -> {
            List<RegistryRow> rows = new ArrayList<>();
            for (RegistryRow row : snapshot.registry().rows()) {
                RowBuilder changed = RowBuilder.from(row);
                int pick = Math.floorMod(row.runtimeId() == null ? 0 : row.runtimeId().hashCode(), odd.size());
                changed.transport = odd.get(pick);
                changed.clientProvenance = odd.get((pick + 3) % odd.size()) + row.clientProvenance();
                rows.add(changed.build());
            }
            assertTextAndDigestAreTheTrees(new Snapshot(snapshot.roster(), RegistryRead.of(rows),
                    snapshot.observation(), snapshot.observedAt(), snapshot.registryPath(), snapshot.answeredBy()));
        });
    }

    @Test
    void theDigestStreamIsTheUtf8OfTheTextWhateverTheCharactersAndWhereverAChunkEnds() {
        List<String> texts = new ArrayList<>(List.of("", "plain", "quote \" backslash \\ tab \t nul \u0000 us \u001f",
                "del \u007f é ß € 𝄞 \u2028", "lone high \ud834 then text", "lone low \udd1e", "ends high \ud834",
                "\udd1e\ud834"));
        // The digest is fed 65,536 bytes at a time; the text starts at byte 9, after {"text":" . Every
        // alignment of a three- and a four-byte character and a lone surrogate around byte 65,536.
        for (int pad = CHUNK - 9 - 6; pad < CHUNK - 9 + 2; pad++) {
            texts.add("x".repeat(pad) + "€" + "y");
            texts.add("x".repeat(pad) + "𝄞" + "y");
            texts.add("x".repeat(pad) + "\ud834" + "y");
            texts.add("x".repeat(pad) + "\ud834");
        }
        texts.add("é".repeat(CHUNK) + "\ud834" + "𝄞".repeat(CHUNK / 2));
        boolean splitOne = false;
        for (String text : texts) {
            Map<String, Object> tree = new LinkedHashMap<>();
            tree.put("text", text);
            tree.put("list", List.of(text, 1, 2L, true));
            CanonicalWriter writer = CanonicalWriter.forDigest();
            writer.beginObject();
            writer.name(FieldName.of("text"));
            writer.string(text);
            writer.name(FieldName.of("list"));
            writer.beginArray();
            writer.string(text);
            writer.number(1);
            writer.number(2L);
            writer.bool(true);
            writer.endArray();
            writer.digest(FieldName.of("digest"), null);
            writer.endObject();
            byte[] expected = CanonicalJson.encode(tree).getBytes(StandardCharsets.UTF_8);
            splitOne |= expected.length > CHUNK && (expected[CHUNK] & 0xC0) == 0x80;
            assertEquals(sha256(expected), writer.digest(), text.length() > 40 ? "text of " + text.length() + " chars" : text);
        }
        assertTrue(splitOne, "some text has a character whose UTF-8 bytes straddle byte 65,536");
    }

    /** An undigested range (a heartbeat) that starts in one chunk and ends in another is left out whole. */
    @Test
    void anUndigestedRangeAcrossAChunkEndIsLeftOutWhole() {
        for (int pad = CHUNK - 40; pad < CHUNK + 4; pad += 3) {
            String before = "x".repeat(pad);
            String skipped = "é".repeat(CHUNK / 2 + pad % 7) + "\ud834";
            String after = "after 𝄞 \ud834";
            Map<String, Object> digested = new LinkedHashMap<>();
            digested.put("before", before);
            digested.put("after", after);
            CanonicalWriter writer = CanonicalWriter.forDigest();
            writer.beginObject();
            writer.name(FieldName.of("before"));
            writer.string(before);
            writer.beginUndigested();
            writer.name(FieldName.of("skipped"));
            writer.string(skipped);
            writer.endUndigested();
            writer.name(FieldName.of("after"));
            writer.string(after);
            writer.digest(FieldName.of("digest"), null);
            writer.endObject();
            assertEquals(sha256(CanonicalJson.encode(digested).getBytes(StandardCharsets.UTF_8)), writer.digest());
        }
    }

    /**
     * A repeatable value written a second time is copied into the text, whose bytes are the ones writing
     * it again gives; the digest (which keeps no bytes to copy) writes it again, leaving out what it
     * leaves out the first time (an undigested range) and taking an unpaired surrogate as '?'.
     */
    @Test
    void aRepeatedValueIsCopiedWithWhatTheDigestLeavesOut() {
        Object key = new Object();
        Consumer<DocumentSink> value = sink -> {
            sink.beginArray();
            sink.beginObject();
            sink.name(FieldName.of("a"));
            sink.string("lone \ud834 é");
            sink.beginUndigested();
            sink.name(FieldName.of("beat"));
            sink.string("skipped");
            sink.endUndigested();
            sink.endObject();
            sink.endArray();
        };
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("a", "lone \ud834 é");
        Map<String, Object> digested = new LinkedHashMap<>();
        digested.put("first", List.of(entry));
        digested.put("again", List.of(entry));
        String digest = sha256(CanonicalJson.encode(digested).getBytes(StandardCharsets.UTF_8));
        Map<String, Object> shownEntry = new LinkedHashMap<>(entry);
        shownEntry.put("beat", "skipped");
        Map<String, Object> shown = new LinkedHashMap<>();
        shown.put("first", List.of(shownEntry));
        shown.put("again", List.of(shownEntry));
        shown.put("digest", digest);
        CanonicalWriter alone = CanonicalWriter.forDigest();
        writeTwice(alone, key, value, null);
        assertEquals(digest, alone.digest());
        CanonicalWriter text = CanonicalWriter.forText();
        writeTwice(text, key, value, digest);
        assertEquals(digest, text.digest(), "a text writer writes the digest it is given");
        assertEquals(CanonicalJson.encode(shown), text.text());
    }

    /** An object with the same repeatable value under "first" and "again", then the digest field. */
    private static void writeTwice(CanonicalWriter writer, Object key, Consumer<DocumentSink> value, String digest) {
        writer.beginObject();
        writer.name(FieldName.of("first"));
        writer.repeatable(key, value);
        writer.name(FieldName.of("again"));
        writer.repeatable(key, value);
        writer.digest(FieldName.of("digest"), digest);
        writer.endObject();
    }

    /** DEL and C1 too: ESC's 8-bit twin U+009B starts a terminal control sequence as ESC [ does. */
    @Test
    void controlCharactersAreEscaped() {
        assertEquals("{\"a\":\"\\u0000\\u001f\\\"\\\\\\u007f\\u0085\\u009b[2J\u00a0\"}",
                CanonicalJson.encode(Map.of("a", "\u0000\u001f\"\\\u007f\u0085\u009b[2J\u00a0")));
        assertEquals(VerdictDocument.canonicalJson(Scenario.healthyFive().classify()),
                CanonicalJson.encode(VerdictDocument.toTree(Scenario.healthyFive().classify())));
    }

    /** The encoder this writer replaced, kept here as the reference for strings. */
    private static String reference(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }

    @Test
    void theTextIsTheReferenceEncodingWhereverAWideCharacterFirstAppears() {
        List<String> texts = new ArrayList<>(List.of("", "plain", "\u0000\u001f\"\\", "é ß ÿ", "€", "𝄞", "\ud834", "a\u2028b"));
        for (int pad = CHUNK - 20; pad < CHUNK; pad++) {
            texts.add("x".repeat(pad) + "€" + "é".repeat(20));
            texts.add("é".repeat(pad) + "𝄞");
        }
        texts.add("y".repeat(100_000) + "€" + "z".repeat(100_000));
        for (String text : texts) {
            assertEquals("[" + reference(text) + "," + reference(text) + "]", CanonicalJson.encode(List.of(text, text)),
                    text.length() > 40 ? "text of " + text.length() + " chars" : text);
        }
    }

    @Test
    void numbersAreWrittenAsLongToStringWritesThem() {
        assertEquals("[0,-1,7,-2147483648,2147483647,-9223372036854775808,9223372036854775807,1000000]",
                CanonicalJson.encode(List.of(0, -1, 7L, Integer.MIN_VALUE, Integer.MAX_VALUE, Long.MIN_VALUE,
                        Long.MAX_VALUE, 1_000_000L)));
    }

    /**
     * Computed by the tree-and-String encoder this writer replaced: the digest must never move except
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

    private static String sha256(String text) {
        return sha256(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String sha256(byte[] bytes) {
        try {
            return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
