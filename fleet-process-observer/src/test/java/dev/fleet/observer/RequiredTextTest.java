package dev.fleet.observer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.fleet.domain.Roster;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.quicktheories.core.Gen;

/**
 * The text every match of a pattern holds: a line without it is answered "no match" without RE2J,
 * so the one thing it may never be is text a match can do without.
 */
class RequiredTextTest {

    /** Literal pieces, which are what a required text is made of. */
    private static final List<String> LITERALS = List.of("a", "b", "c", " ", "/", "é", "\uD83D\uDE00", "-", "\\.", "\\/");
    /**
     * Pieces of RE2 syntax, among them every kind the scan treats apart, and some RE2J refuses; the
     * literals three times over, so that many patterns have a required text to test.
     */
    private static final List<String> PATTERN_PIECES = Stream.of(LITERALS, LITERALS, LITERALS, List.of(
            "}", "]", "\t", "\\-", "\\{", "\\s", "\\d", "\\w", "\\b", "\\A", "\\z", "\\n",
            "\\x61", "\\x{62}", "\\pL", "\\p{Latin}", "\\PL", "\\141", "\\0", "\\C", "\\Qa.b\\E",
            ".", "^", "$", "[ab]", "[^a]", "[]a]", "[a-c]", "[[:alpha:]]", "[\\]b]",
            "[[:x]", "[!-[:x]", ":]", "[:", "[a-]", "[\\pL]", "[\\pLa]", "[!-\\x2f-[:alpha:]a]", "[--\\x41-[:^digit:]]",
            "[\\101-[:alpha:]]", "[\\0-[:alpha:]]",
            "(a|b)", "(?:ab)", "(?i)", "(?i:a)", "(ab)", "(a*)", "(\\))", "([)])", "(?P<n>a)",
            "|", "*", "+", "?", "*?", "{2}", "{1,3}", "{2,}", "{", "(", ")")).flatMap(List::stream).toList();
    /** What each piece of syntax may match (a literal piece matches itself): lines built of these often match. */
    private static final Map<String, String> SAMPLES = Map.ofEntries(
            Map.entry("\\.", "."), Map.entry("\\/", "/"), Map.entry("\\-", "-"), Map.entry("\\{", "{"),
            Map.entry("\\s", " "), Map.entry("\\d", "1"), Map.entry("\\w", "a"), Map.entry("\\b", ""),
            Map.entry("\\A", ""), Map.entry("\\z", ""), Map.entry("\\n", "\n"), Map.entry("\\x61", "a"),
            Map.entry("\\x{62}", "b"), Map.entry("\\pL", "é"), Map.entry("\\p{Latin}", "a"), Map.entry("\\PL", "1"),
            Map.entry("\\141", "a"), Map.entry("\\0", "\0"), Map.entry("\\C", "x"), Map.entry("\\Qa.b\\E", "a.b"),
            Map.entry(".", "é"), Map.entry("^", ""), Map.entry("$", ""), Map.entry("[ab]", "b"), Map.entry("[^a]", "c"),
            Map.entry("[]a]", "]"), Map.entry("[a-c]", "c"), Map.entry("[[:alpha:]]", "A"), Map.entry("[\\]b]", "]"),
            Map.entry("[[:x]", "x"), Map.entry("[!-[:x]", "x"), Map.entry("[a-]", "-"), Map.entry("[\\pL]", "é"),
            Map.entry("[\\pLa]", "a"), Map.entry("[!-\\x2f-[:alpha:]a]", "/"), Map.entry("[--\\x41-[:^digit:]]", "-"),
            Map.entry("[\\101-[:alpha:]]", "A]"), Map.entry("[\\0-[:alpha:]]", "-]"),
            Map.entry("(a|b)", "b"), Map.entry("(?:ab)", "ab"), Map.entry("(?i)", ""), Map.entry("(?i:a)", "A"),
            Map.entry("(ab)", "ab"), Map.entry("(a*)", "aa"), Map.entry("(\\))", ")"), Map.entry("([)])", ")"),
            Map.entry("(?P<n>a)", "a"), Map.entry("|", ""), Map.entry("*", ""), Map.entry("+", ""), Map.entry("?", ""),
            Map.entry("*?", ""), Map.entry("{2}", ""), Map.entry("{1,3}", ""), Map.entry("{2,}", ""), Map.entry("(", ""),
            Map.entry(")", ""));
    /** Pieces of command lines around what the pattern's pieces match. */
    private static final List<String> TEXT_PIECES = List.of(
            "a", "b", "c", "A", " ", "/", ".", "1", "-", "é", "\uD83D\uDE00", "ab", "x", "{", "}", "]", "\t");

    /**
     * For random patterns of those pieces, and lines made of what each piece matches, each taken 0 to 2
     * times (a piece before a quantifier absent, or repeated), between random text: RE2J finding a match
     * means the line holds the required text. Most lines match, so the text is put to the test.
     */
    @Test
    void aLineWithoutTheRequiredTextNeverMatches() {
        AtomicInteger narrowed = new AtomicInteger();
        Gen<List<String>> patterns = lists().of(arbitrary().pick(PATTERN_PIECES)).ofSizeBetween(1, 8);
        Gen<List<Integer>> times = lists().of(integers().between(0, 2)).ofSize(8);
        Gen<String> noise = lists().of(arbitrary().pick(TEXT_PIECES)).ofSizeBetween(0, 3).map(list -> String.join("", list));
        qt().withExamples(50_000).forAll(patterns, times, noise, noise).checkAssert((pieces, counts, before, after) -> {
            String pattern = String.join("", pieces);
            Pattern compiled;
            try {
                compiled = Pattern.compile(pattern);
            } catch (PatternSyntaxException refused) {
                return; // RE2J refuses it: no server pattern it could be
            }
            StringBuilder line = new StringBuilder(before);
            for (int i = 0; i < pieces.size(); i++) {
                line.append(SAMPLES.getOrDefault(pieces.get(i), pieces.get(i)).repeat(counts.get(i)));
            }
            line.append(after);
            String required = RequiredText.of(pattern);
            if (compiled.matcher(line).find()) {
                assertTrue(line.toString().contains(required), () -> "`" + pattern + "` matches `" + line
                        + "` without its required text `" + required + "`");
                if (!required.isEmpty()) {
                    narrowed.incrementAndGet();
                }
            }
        });
        assertTrue(narrowed.get() > 2_000, "too few matches with a required text to prove anything: " + narrowed);
    }

    @ParameterizedTest(name = "`{0}` requires `{1}`")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "\"(^|[\\s/])fleet\\.jar serve(\\s|$)\"                   | fleet.jar serve",
        "\"(^|\\s)dev[./]fleet[./]cli[./]FleetCli serve(\\s|$)\"   | FleetCli serve",
        "\"fleet\\.jar serve .*--registry /tmp/r/control_plane\\.sqlite3\" | --registry /tmp/r/control_plane.sqlite3",
        "ab*cd                  | cd",
        "abc?                   | ab",
        "x{2}yz                 | yz",
        "\"\\.\\-\\/\"          | .-/",
        "\"a\\sbc\"             | bc",
        "\"é\uD83D\uDE00*x\"    | é",
        // a range's end is one character, never a named class: the group holds the second '(', and zzz
        "\"(a[!-[:x](:]])zzz[!-[:x])?:]]\" | :",
    })
    void theLongestRunOfLiteralsAtTheTopLevel(String pattern, String required) {
        assertEquals(required, RequiredText.of(pattern));
    }

    @ParameterizedTest(name = "`{0}` requires nothing")
    @ValueSource(strings = {
        "fleet|serve", "(?i)fleet", "a(?i)bc", "\\Qfleet\\E", "\\x66leet", "\\pLfleet", "\\101bc",
        "(fleet)", "[fleet]", "", ".*", "a*", "aaaa{|b", "fleet{|serve",
        // a class ends where RE2J ends it: no ":]" makes "[:" two characters; a range's end is one character
        "serve[[:x]|y", "[!-[:x]|:]]serve",
    })
    void nothingWhenALiteralCouldMeanMoreOrBeAbsent(String pattern) {
        assertEquals("", RequiredText.of(pattern));
    }

    /** An escape's digits are no items of their own: after {@code \x2f} or {@code \101} a '-' is no range. */
    @Test
    void aClassWithAnEscapedNumberEndsWhereRe2jEndsIt() {
        assertEquals("serve", RequiredText.of("(^|\\s)[!-\\x2f-[:alpha:]fleet]serve"));
        assertEquals("serve", RequiredText.of("[!-\\101-[:alpha:]fleet]serve"));
        assertEquals("serve", RequiredText.of("[\\001-\\012-[:alpha:]fleet]serve"));
    }

    @Test
    void theDefaultsRequireTheirLiterals() {
        List<String> required = Roster.DEFAULT_SERVER_PROCESS_PATTERNS.stream().map(RequiredText::of).toList();
        assertEquals(List.of("fleet.jar serve", "FleetCli serve"), required);
        assertFalse(required.contains(""), "each default must let a line without it skip RE2J");
    }
}
