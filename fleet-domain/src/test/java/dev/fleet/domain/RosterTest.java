package dev.fleet.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RosterTest {

    private static final RosterMember AUTHOR = new RosterMember("gitea-author", "prgs-author", "author");

    private static String rejection(Binding binding, List<RosterMember> members, List<String> patterns) {
        return assertThrows(IllegalArgumentException.class, () -> new Roster(binding, members, patterns)).getMessage();
    }

    @Test
    void theEmbeddedDefaultIsTheContractsRoster() {
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
    void aMissingPatternListMeansTheDefaults() {
        Roster roster = new Roster(Binding.DEFAULT, List.of(AUTHOR), null);
        assertEquals(Roster.DEFAULT_SERVER_PROCESS_PATTERNS, roster.serverProcessPatterns());
    }

    /**
     * The domain cannot judge RE2 syntax (it is JDK only, and the JDK's engine accepts what RE2
     * rejects): the observer compiles the patterns, and the roster loader reports one it cannot.
     */
    @Test
    void patternSyntaxIsLeftToTheObserversEngine() {
        List<String> patterns = List.of("(a)\\1", "(?=fleet)", "fleet(");
        assertEquals(patterns, new Roster(Binding.DEFAULT, List.of(AUTHOR), patterns).serverProcessPatterns());
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
        assertEquals("roster: server_process_patterns[1] must be a non-blank string",
                rejection(Binding.DEFAULT, List.of(AUTHOR), List.of("fleet", " ")));
        assertEquals("roster: binding is required", rejection(null, List.of(AUTHOR), null));
        assertEquals("roster: server_process_patterns must list at least one pattern (leave it out for the "
                + "defaults)", rejection(Binding.DEFAULT, List.of(AUTHOR), List.of()));
    }
}
