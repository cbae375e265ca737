package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.cli.exit.ConfigurationException;
import dev.fleet.domain.RosterMember;
import dev.fleet.observer.ServerPatterns;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code mcp-config --server-command}: words as a shell splits them, per member, and the pattern that finds them. */
class ServerCommandTest {

    private static final RosterMember AUTHOR = new RosterMember("gitea-author", "prgs-author", "author");
    private static final RosterMember MERGER = new RosterMember("gitea-merger", "prgs-merger", "merger");

    @Test
    void wordsAreSplitAsAShellWouldWithoutOneRunningThem() {
        assertEquals(List.of("uv", "run", "my server.py", "--name=a b", "it's", "$HOME", ""),
                ServerCommand.parse("  uv run 'my server.py' --name=\"a b\" it\\'s '$HOME' \"\"").words());
        assertThrows(ConfigurationException.class, () -> ServerCommand.parse("python3 'server.py"));
        assertThrows(ConfigurationException.class, () -> ServerCommand.parse("python3 server.py \\"));
        assertThrows(ConfigurationException.class, () -> ServerCommand.parse("   "));
    }

    @Test
    void placeholdersAreFilledInPerMember() {
        ServerCommand command = ServerCommand.parse("python3 /srv/gitea/server.py --profile {profile} --ns={namespace}"
                + " --role {role}");
        assertEquals(List.of("python3", "/srv/gitea/server.py", "--profile", "prgs-author", "--ns=gitea-author",
                "--role", "author"), command.forMember(AUTHOR));
    }

    @Test
    void thePatternFindsEveryMembersServerHoweverTheProgramIsShownAndNothingElse() {
        ServerCommand command = ServerCommand.parse("python3 /srv/gitea/server.py --profile {profile} --role {role}");
        ServerPatterns patterns = ServerPatterns.compile(List.of(command.pattern()));
        for (RosterMember member : List.of(AUTHOR, MERGER)) {
            List<String> words = command.forMember(member);
            assertTrue(patterns.matches(String.join(" ", words)), command.pattern());
            assertTrue(patterns.matches("/usr/bin/python3.11 " + String.join(" ", words.subList(1, words.size()))),
                    "the interpreter as the process table shows it");
        }
        assertFalse(patterns.matches("python3 /srv/gitea/server.py --profile prgs-author"), "another command line");
        assertFalse(patterns.matches("python3 /srv/gitea/serverXpy --profile a --role b"), "dots are literal");
        assertTrue(ServerPatterns.compile(List.of(ServerCommand.parse("my-mcp-server").pattern()))
                .matches("/opt/bin/my-mcp-server"), "a program alone is its own pattern");
    }
}
