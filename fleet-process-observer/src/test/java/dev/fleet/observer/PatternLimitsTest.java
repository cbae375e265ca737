package dev.fleet.observer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PatternLimitsTest {

    @Test
    void theDefaultPatternsAndOrdinaryOnesKeepEveryBound() {
        for (String pattern : List.of("(^|[\\s/])fleet\\.jar serve(\\s|$)", "a{1000}", "(a{10}){100}",
                "[(((]{5}", "\\Q((((\\E", "\\x{1000}\\p{Greek}", "[]a]{2}", "[^]a]", "[[:alpha:]]{3}", "x{,5}",
                "(?i)(?P<name>ab){2}", "a{2,}{")) {
            assertEquals(Optional.empty(), PatternLimits.violation(pattern), pattern);
            ServerPatterns.compile(List.of(pattern)); // and RE2J takes each too
        }
    }

    @Test
    void aPatternLongerThan4096CharactersIsRefusedUnread() {
        assertEquals(Optional.empty(), PatternLimits.violation("a".repeat(PatternLimits.MAX_CHARS)));
        assertEquals(Optional.of("longer than 4096 characters (900000)"), PatternLimits.violation("a".repeat(900_000)));
    }

    @Test
    void groupsNestedDeeperThan100AreRefused() {
        assertEquals(Optional.empty(), PatternLimits.violation(nested(100)));
        assertEquals(Optional.of("groups nested more than 100 deep"), PatternLimits.violation(nested(101)));
        assertEquals(Optional.of("groups nested more than 100 deep"), PatternLimits.violation("(".repeat(2000)));
        assertEquals(Optional.empty(), PatternLimits.violation("\\(".repeat(200) + "[(]".repeat(200)),
                "escaped parentheses and classes are no groups");
    }

    @Test
    void nestedRepetitionCountsMayMultiplyTo1000AtMost() {
        assertEquals(Optional.empty(), PatternLimits.violation("((a{10}){10}){10}"));
        assertEquals(Optional.empty(), PatternLimits.violation("(a{500}b{500}){2}"));
        String refused = "nested repetition counts multiply to more than 1000";
        assertEquals(Optional.of(refused), PatternLimits.violation("(a{1000}){2}"));
        assertEquals(Optional.of(refused), PatternLimits.violation("((((a{1000}){1000}){1000}){1000})"));
        assertEquals(Optional.of(refused), PatternLimits.violation("(x(a{2,}){10}){100}"));
        // a class ends where RE2J ends it, so none can hide the counts after it: "[:" with no ":]" is two
        // characters, and a range's end is one character, never a named class
        assertEquals(Optional.of(refused), PatternLimits.violation("[[:x]((a{100}){100}){100}"));
        assertEquals(Optional.of(refused), PatternLimits.violation("[!-[:x]((a{100}){100}){100}:]"));
        assertEquals(Optional.of(refused), PatternLimits.violation("[--\\x41-[:^digit:][]((a{1000}){1000}){1000}]"));
        assertEquals(Optional.of(refused), PatternLimits.violation("[--\\101-[:^digit:][]((a{1000}){1000}){1000}]"));
        // a group of flags alone, or \Q\E quoting nothing, adds no operand: a count after it repeats the last
        assertEquals(Optional.of(refused), PatternLimits.violation("a{1000}(?i){1000}(?i){1000}"));
        assertEquals(Optional.of(refused), PatternLimits.violation("fleet{1000}(?s){1000}(?-s){1000}"));
        assertEquals(Optional.of(refused), PatternLimits.violation("a{1000}\\Q\\E{1000}\\Q\\E{1000}"));
        assertEquals(Optional.empty(), PatternLimits.violation("(?i)a{1000}(?i:b){2}(?:c){3}\\Qd\\E{4}"));
    }

    @Test
    void serverPatternsRefusesBeforeCompilingWithAShortMessage() {
        InvalidServerPatternException refused = assertThrows(InvalidServerPatternException.class,
                () -> ServerPatterns.compile(List.of("ok", nested(1_000))));
        assertEquals(1, refused.index());
        assertEquals("groups nested more than 100 deep", refused.problem());
        assertTrue(refused.getMessage().length() < 400, refused.getMessage());
        assertTrue(refused.getMessage().endsWith("... (2001 characters)'"), refused.getMessage());
    }

    private static String nested(int depth) {
        return "(".repeat(depth) + "a" + ")".repeat(depth);
    }
}
