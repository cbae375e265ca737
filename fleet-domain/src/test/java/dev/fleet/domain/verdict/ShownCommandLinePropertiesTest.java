package dev.fleet.domain.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import dev.fleet.domain.SecretMask;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.core.RandomnessSource;

/**
 * A command line as fleet shows it ({@link OutsideText#commandLine}) over generated lines whose secrets, URLs and
 * options fall across the cap at every offset: showing a shown line changes nothing, and a line an observer keeps
 * masked and capped already is shown as the whole line would be but for the word the cap cut. That is what lets
 * the observer keep 4 KB of a process's megabytes of argv.
 */
class ShownCommandLinePropertiesTest {

    private static final List<String> PIECES = List.of("-", "--", "=", ":", "/", "//", "://", "@", " ", "  ", "a",
            "token", "KEY", "auth", "Bearer", "basic", "***", "x", "http", "u:p@h", "API_KEY=", "é", "\uD83D\uDE00");
    /** The pieces, and those of a cap's suffix: a line may end as a capped one does without being one. */
    private static final List<String> WITH_SUFFIXES = Stream.concat(PIECES.stream(),
            Stream.of("…[truncated, ", "7", " chars]")).toList();

    @Test
    void showingAShownLineChangesNothing() {
        qt().withExamples(20_000).forAll(acrossTheCap(WITH_SUFFIXES)).checkAssert(line -> {
            String shown = OutsideText.commandLine(line);
            assertEquals(shown, OutsideText.commandLine(shown), () -> "shown as " + tail(shown));
        });
    }

    /**
     * An observer keeps a long line masked and capped: shown, it is the whole line's showing up to the word the cap
     * cut, which may hide more (a URL cut before its host reads as a user part), never less.
     */
    @Test
    void aLineKeptMaskedAndCappedIsShownAsTheWholeLineUpToItsCutWord() {
        qt().withExamples(20_000).forAll(acrossTheCap(PIECES)).checkAssert(line -> {
            for (String kept : List.of(OutsideText.cap(SecretMask.argv(List.of(line.split(",", -1)))),
                    OutsideText.cap(SecretMask.commandLine(line)))) {
                String shown = OutsideText.commandLine(kept);
                assertEquals(beforeTheCutWord(kept), beforeTheCutWord(shown), () -> "kept as " + tail(kept)
                        + ", shown as " + tail(shown));
            }
        });
    }

    /** The text before the last space ahead of a cap's suffix; the whole text when it was not capped. */
    private static String beforeTheCutWord(String shown) {
        int suffix = shown.lastIndexOf("…[truncated, ");
        return suffix < 0 ? shown : shown.substring(0, Math.max(0, shown.lastIndexOf(' ', suffix)));
    }

    /** Filler up to a few characters short of the cap, then pieces that the cut falls among. */
    private static Gen<String> acrossTheCap(List<String> pieces) {
        return ((Gen<String>) in -> line(in, pieces)).describedAs(ShownCommandLinePropertiesTest::tail);
    }

    private static String line(RandomnessSource in, List<String> pieces) {
        StringBuilder text = new StringBuilder("f".repeat(OutsideText.MAX_CHARS - pick(in, 0, 40)));
        for (int count = pick(in, 0, 24); count > 0; count--) {
            text.append(pick(in, 0, 6) == 0 ? "," : pieces.get(pick(in, 0, pieces.size() - 1)));
        }
        return text.toString();
    }

    private static String tail(String text) {
        return "…" + text.substring(Math.max(0, text.length() - 120));
    }

    private static int pick(RandomnessSource in, int low, int high) {
        return integers().between(low, high).generate(in);
    }
}
