package dev.fleet.observer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.Roster;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The one matcher of server process patterns: RE2J, found anywhere, linear in the command line. */
class ServerPatternsTest {

    private static final ServerPatterns DEFAULTS = ServerPatterns.compile(Roster.DEFAULT_SERVER_PROCESS_PATTERNS);

    /** How the defaults matched before RE2J: the JDK's engine, found anywhere. The reference for "today". */
    private static boolean matchedBefore(String commandLine) {
        return Roster.DEFAULT_SERVER_PROCESS_PATTERNS.stream()
                .anyMatch(pattern -> java.util.regex.Pattern.compile(pattern).matcher(commandLine).find());
    }

    /** Both the JDK's engine (before) and the defaults (now) give {@code expected} for this command line. */
    private static void assertMatchesAsBefore(boolean expected, String commandLine) {
        assertEquals(expected, matchedBefore(commandLine), "matched before: " + commandLine);
        assertEquals(expected, DEFAULTS.matches(commandLine), commandLine);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // the launcher's exec, with and without the class-data archive
        "java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xlog:disable -Xlog:all=error:stderr -jar "
                + "/repo/fleet-cli-adapter/target/fleet.jar serve --profile prgs-author",
        "java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xlog:disable -Xlog:all=error:stderr "
                + "-XX:SharedArchiveFile=/repo/fleet-cli-adapter/target/fleet.jsa -jar "
                + "/repo/fleet-cli-adapter/target/fleet.jar serve --profile prgs-reviewer --transport http --port 0",
        "/usr/bin/java -jar fleet.jar serve",
        "java -jar /opt/fleet/fleet.jar serve",
        "fleet.jar serve --profile prgs-merger",
        "java -jar fleet.jar serve\t--profile prgs-merger",
        "java -jar /opt/fleet-test-0b6f3c1e/fleet.jar serve --profile x --registry /tmp/r.sqlite3 300",
        // the main class run directly
        "java -cp a.jar:b.jar dev.fleet.cli.FleetCli serve --profile prgs-merger",
        "java -cp target/classes dev.fleet.cli.FleetCli serve",
        "dev.fleet.cli.FleetCli serve",
        // the main class spelled with the slashes the java launcher accepts too
        "java -cp /opt/fleet/fleet.jar dev/fleet/cli/FleetCli serve --profile prgs-author",
    })
    void theDefaultsStillMatchEveryServeCommandLine(String commandLine) {
        assertMatchesAsBefore(true, commandLine);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "java -jar /opt/fleet/fleet.jar assess --format json",
        "java -jar /opt/fleet/fleet.jar serve-later",
        "java -jar /opt/fleet/notfleet.jar serve",
        "java -jar myfleet.jar serve",
        "java -jar fleet-jar serve",
        "java -jar fleet.jar  serve",
        "java -jar fleet.jar",
        "vim fleet.jar serve.txt",
        "java -cp x dev.fleet.cli.FleetCli assess",
        "java -cp x my.dev.fleet.cli.FleetCli serve",
        "java -cp x dev.fleet.cli.FleetCliX serve",
        "java -cp x dev/fleet/cli/FleetCliX serve",
        "java -cp x dev\\fleet\\cli\\FleetCli serve",
        "java -cp x my/dev/fleet/cli/FleetCli serve",
        "sleep 600",
        "",
    })
    void theDefaultsStillMatchNothingElse(String commandLine) {
        assertMatchesAsBefore(false, commandLine);
    }

    /**
     * Every command line of up to four of these pieces (about 41,000) is matched by the defaults
     * exactly as the JDK's engine matched it. The pieces are what the defaults look at: the names,
     * separators, every whitespace character both engines call {@code \s}, and near misses.
     */
    @Test
    void theDefaultsAgreeWithTheJdkEngineOnEveryShortCombination() {
        List<String> pieces = List.of("fleet.jar serve", "dev.fleet.cli.FleetCli serve", "fleet.jar", "serve", " ",
                "/", "\t", "\n", "\r", "\f", "\u00a0", "x", "-", ".");
        List<String> lines = new ArrayList<>(List.of(""));
        List<String> previous = List.of("");
        for (int length = 1; length <= 4; length++) {
            List<String> next = new ArrayList<>();
            for (String prefix : previous) {
                for (String piece : pieces) {
                    next.add(prefix + piece);
                }
            }
            lines.addAll(next);
            previous = next;
        }
        int matching = 0;
        for (String line : lines) {
            boolean before = matchedBefore(line);
            assertEquals(before, DEFAULTS.matches(line), () -> "differs on '" + line.replace("\n", "\\n") + "'");
            matching += before ? 1 : 0;
        }
        assertTrue(matching > 5_000, "the combinations include serve command lines: " + matching);
    }

    /**
     * Where the engines part: the JDK's {@code \s} also takes a vertical tab, and its {@code $} also
     * matches before a final U+0085, U+2028 or U+2029. No {@code fleet serve} command line has
     * them (picocli refuses a verb with a line break in it); recorded here so the difference is a
     * known one.
     */
    @ParameterizedTest
    @ValueSource(strings = {"java -jar x\u000bfleet.jar serve", "java -jar fleet.jar serve\u000b--profile",
            "java -jar fleet.jar serve\u2028", "java -jar fleet.jar serve\u0085", "dev.fleet.cli.FleetCli serve\u2029"})
    void theEnginesPartOnlyOnAVerticalTabOrATrailingUnicodeLineBreak(String commandLine) {
        assertTrue(matchedBefore(commandLine));
        assertFalse(DEFAULTS.matches(commandLine));
    }

    /**
     * A command line longer than what is kept whole is remembered by its digest: exact (one character
     * apart is another answer), a few dozen characters of memory, and scanned once, not at every look.
     */
    @Test
    void aLongCommandLineIsRememberedByItsDigestExactly() {
        ServerPatterns patterns = ServerPatterns.compile(List.of("(^|\\s)fleet\\.jar serve(\\s|$)"));
        String padding = "x".repeat(2 * ServerPatterns.LONGEST_REMEMBERED);
        String server = "java -Dpad=" + padding + " -jar fleet.jar serve --profile a";
        String other = "java -Dpad=" + padding + " -jar fleet.jar serve--profile a";

        assertTrue(patterns.matches(server));
        assertFalse(patterns.matches(other));
        assertTrue(patterns.matches(server), "remembered, the same answer");
        assertFalse(patterns.matches(other), "remembered, the same answer");
        int remembered = patterns.rememberedCharacters();
        assertTrue(remembered > 0 && remembered < 200, "two digests, never the lines: " + remembered);
    }

    /**
     * A 2 MB command line that holds no pattern's required text ({@link RequiredText}) is answered
     * without RE2J and without a digest, so nothing of it is remembered; one that holds it is matched
     * and remembered as before, and a pattern that requires no text still sees every line.
     */
    @Test
    void aHugeCommandLineWithoutAnyRequiredTextIsAnsweredWithoutBeingScanned() {
        ServerPatterns defaults = ServerPatterns.compile(Roster.DEFAULT_SERVER_PROCESS_PATTERNS);
        String huge = "bash -c sleep " + "x".repeat(2_000_000);
        assertFalse(defaults.matches(huge));
        assertEquals(0, defaults.rememberedCharacters(), "no digest was made of it");

        assertFalse(defaults.matches(huge + " fleet.jar serve-later"), "holds the text, still no match");
        assertTrue(defaults.matches(huge + " /opt/fleet.jar serve --profile a"));
        assertTrue(defaults.rememberedCharacters() > 0, "both scanned and remembered");

        ServerPatterns anyEnd = ServerPatterns.compile(List.of("fleet\\.jar serve", "x$"));
        assertTrue(anyEnd.matches(huge), "the second requires no text");
    }

    @Test
    void aPatternIsFoundAnywhereAndAnyPatternWillDo() {
        ServerPatterns patterns = ServerPatterns.compile(List.of("^x", "y$"));
        assertTrue(patterns.matches("ay"));
        assertTrue(patterns.matches("xa"));
        assertFalse(patterns.matches("axa"));
        assertTrue(ServerPatterns.compile(List.of("widget-server")).matches("python -m widget-server --profile w"));
        assertFalse(ServerPatterns.compile(List.of()).matches("anything"));
        assertFalse(DEFAULTS.matches(null));
    }

    @Test
    void aBackReferenceIsRefusedByName() {
        InvalidServerPatternException refused = assertThrows(InvalidServerPatternException.class,
                () -> ServerPatterns.compile(List.of("fleet\\.jar", "(a)\\1")));
        assertEquals(1, refused.index());
        assertEquals("(a)\\1", refused.pattern());
        assertEquals("invalid escape sequence `\\1`", refused.problem());
        assertEquals("server process pattern 1 does not compile as a linear-time (RE2) pattern: "
                + "invalid escape sequence `\\1` in '(a)\\1'", refused.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"(?=fleet)fleet\\.jar", "(?!x)serve", "(?<=java )fleet", "(?<!x)fleet", "a++", "("})
    void lookAroundAndOtherNonRe2SyntaxIsRefused(String pattern) {
        InvalidServerPatternException refused = assertThrows(InvalidServerPatternException.class,
                () -> ServerPatterns.compile(List.of(pattern)));
        assertEquals(0, refused.index());
        assertEquals(pattern, refused.pattern());
        assertTrue(refused.getMessage().endsWith(" in '" + pattern + "'"), refused.getMessage());
    }

    @Test
    void anObserverRefusesAPatternItCannotCompileBeforeListingAnything() {
        assertThrows(InvalidServerPatternException.class,
                () -> new ProcessHandleObserver().observe(List.of("(a)\\1"), Set.of()));
    }

    /**
     * A pattern exponential for a backtracking engine (the JDK's would run for ages on this line)
     * meets a long crafted command line. The timeout only tells a hang from an answer.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aCraftedCommandLineCannotMakeMatchingHang() {
        ServerPatterns catastrophic = ServerPatterns.compile(List.of("(a|a){2,100}b", "(x+x+)+y", "(a+)+$"));
        String crafted = "a".repeat(10_000) + "! " + "x".repeat(10_000);
        assertFalse(catastrophic.matches(crafted));
        assertTrue(catastrophic.matches(crafted + "y"));
    }
}
