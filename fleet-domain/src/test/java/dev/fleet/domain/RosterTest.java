package dev.fleet.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class RosterTest {

    private static final RosterMember AUTHOR = new RosterMember("gitea-author", "prgs-author", "author");

    private static String rejection(Binding binding, List<RosterMember> members, List<String> patterns) {
        return assertThrows(IllegalArgumentException.class, () -> new Roster(binding, members, patterns)).getMessage();
    }

    @Test
    void theEmbeddedDefaultIsSpecSectionTwo() {
        Roster roster = Roster.defaultRoster();
        assertEquals(new Binding("prgs", "Scaled-Tech-Consulting", "Gitea-Tools"), roster.binding());
        assertEquals(List.of("author", "reviewer", "controller", "merger", "reconciler"),
                roster.members().stream().map(RosterMember::role).toList());
        assertEquals(Roster.DEFAULT_SERVER_PROCESS_PATTERNS, roster.serverProcessPatterns());
    }

    @Test
    void namespaceAndRoleAreResolvedByProfile() {
        Roster roster = Roster.defaultRoster();
        assertEquals(Optional.of(new RosterMember("gitea-merger", "prgs-merger", "merger")),
                roster.memberByProfile("prgs-merger"));
        assertEquals(Optional.empty(), roster.memberByProfile("merger"));
    }

    @Test
    void theDefaultPatternsMatchTheServeCommandLinesOnly() {
        Predicate<String> matcher = Roster.defaultRoster().serverProcessMatcher();
        assertTrue(matcher.test("java -XX:TieredStopAtLevel=1 -jar /opt/fleet/fleet.jar serve --profile prgs-author"));
        assertTrue(matcher.test("/usr/bin/java -jar fleet.jar serve"));
        assertTrue(matcher.test("java -cp a.jar:b.jar dev.fleet.cli.FleetCli serve --profile prgs-merger"));
        assertFalse(matcher.test("java -jar /opt/fleet/fleet.jar assess --format json"));
        assertFalse(matcher.test("java -jar /opt/fleet/fleet.jar serve-later"));
        assertFalse(matcher.test("java -jar /opt/fleet/notfleet.jar serve"));
        assertFalse(matcher.test(null));
    }

    @Test
    void aMissingPatternListMeansTheDefaults() {
        Roster roster = new Roster(Binding.DEFAULT, List.of(AUTHOR), null);
        assertEquals(Roster.DEFAULT_SERVER_PROCESS_PATTERNS, roster.serverProcessPatterns());
    }

    @Test
    void everyInvalidRosterIsRejectedWithOneClearMessage() {
        assertEquals("roster: binding.org must be a non-blank string",
                rejection(new Binding("prgs", " ", "repo"), List.of(AUTHOR), null));
        assertEquals("roster: members must list at least one member", rejection(Binding.DEFAULT, List.of(), null));
        assertEquals("roster: members[1].role must be a non-blank string",
                rejection(Binding.DEFAULT, List.of(AUTHOR, new RosterMember("a", "b", "")), null));
        assertEquals("roster: duplicate profile 'prgs-author'",
                rejection(Binding.DEFAULT, List.of(AUTHOR, new RosterMember("other", "prgs-author", "x")), null));
        assertEquals("roster: duplicate namespace 'gitea-author'",
                rejection(Binding.DEFAULT, List.of(AUTHOR, new RosterMember("gitea-author", "p2", "x")), null));
        assertTrue(rejection(Binding.DEFAULT, List.of(AUTHOR), List.of("fleet(")).startsWith(
                "roster: server_process_patterns[0] does not compile"));
        assertEquals("roster: binding is required", rejection(null, List.of(AUTHOR), null));
        assertEquals("roster: server_process_patterns must list at least one pattern (leave it out for the "
                + "defaults)", rejection(Binding.DEFAULT, List.of(AUTHOR), List.of()));
    }
}
