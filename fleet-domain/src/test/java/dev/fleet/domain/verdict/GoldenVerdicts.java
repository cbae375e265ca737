package dev.fleet.domain.verdict;

import static org.quicktheories.QuickTheory.qt;

import dev.fleet.domain.Snapshot;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.quicktheories.core.Gen;

/**
 * The verdicts of {@code golden-verdicts.txt}: the first {@value #PLAIN} fleets {@link FleetGen} makes
 * from {@value #SEED}, then the first {@value #HOSTILE} {@link HostileFleets} makes from it, each a
 * line of its digest, the SHA-256 of its JSON's UTF-16 (which keeps an unpaired surrogate, as the JSON
 * does) and the JSON's length. The file was written by the streaming writer this encoding replaced.
 * A change to either generator (or a field the contract adds) changes these verdicts: the file is
 * then recorded again from {@link #line}, once the change's own tests show the bytes it meant to change.
 */
final class GoldenVerdicts {

    private static final String RESOURCE = "golden-verdicts.txt";
    static final long SEED = 47L;
    static final int PLAIN = 200;
    static final int HOSTILE = 300;

    private GoldenVerdicts() {
    }

    /** The golden lines' verdicts, in order. */
    static List<Verdict> verdicts() {
        List<Verdict> verdicts = new ArrayList<>();
        generate(FleetGen.fleets(), PLAIN).forEach(snapshot -> verdicts.add(FleetClassifier.classify(snapshot)));
        generate(HostileFleets.fleets(), HOSTILE).forEach(snapshot -> verdicts.add(FleetClassifier.classify(snapshot)));
        return verdicts;
    }

    private static List<Snapshot> generate(Gen<Snapshot> fleets, int count) {
        List<Snapshot> snapshots = new ArrayList<>();
        qt().withFixedSeed(SEED).withExamples(count).forAll(fleets).checkAssert(snapshots::add);
        return snapshots;
    }

    /** The lines of the file, in order. */
    static List<String> lines() throws IOException {
        try (InputStream in = GoldenVerdicts.class.getResourceAsStream(RESOURCE)) {
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII).lines().toList();
        }
    }

    /** The golden line of a verdict whose digest and JSON these are. */
    static String line(String digest, String json) {
        return digest + " " + sha256(json.getBytes(StandardCharsets.UTF_16BE)) + " " + json.length();
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
