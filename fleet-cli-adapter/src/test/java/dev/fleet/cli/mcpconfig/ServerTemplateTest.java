package dev.fleet.cli.mcpconfig;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.cli.exit.ConfigurationException;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.SecretMask;
import dev.fleet.observer.ServerPatterns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mcp-config --server-command}: words per member, placeholders replaced once, and the pattern that
 * finds exactly the command lines the entries start (as a process table joins them) and no other fleet's.
 */
class ServerTemplateTest {

    private static final RosterMember AUTHOR = new RosterMember("gitea-author", "prgs-author", "author");
    private static final RosterMember MERGER = new RosterMember("gitea-merger", "prgs-merger", "merger");
    private static final List<RosterMember> FLEET = List.of(AUTHOR, MERGER);
    /** Another repository's fleet on the same host: other names, the same server. */
    private static final List<RosterMember> OTHER_FLEET = List.of(new RosterMember("tools-author", "tools-author",
            "author"), new RosterMember("gitea-merger2", "prgs-merger2", "merger"));

    @Test
    void placeholdersAreFilledInPerMember() {
        ServerTemplate command = ServerTemplate.parse("python3 /srv/gitea/server.py --profile {profile} --ns={namespace}"
                + " --role {role}");
        assertEquals(List.of("python3", "/srv/gitea/server.py", "--profile", "prgs-author", "--ns=gitea-author",
                "--role", "author"), command.forMember(AUTHOR));
        assertTrue(command.hasPlaceholder());
    }

    @Test
    void eachPlaceholderIsReplacedOnceAndAValueIsNeverReadAgain() {
        RosterMember odd = new RosterMember("ns-{profile}", "p{role}q", "r{namespace}");
        assertEquals(List.of("srv", "p{role}q/ns-{profile}", "--x=r{namespace}", "{p{role}q}"),
                ServerTemplate.parse("srv {profile}/{namespace} --x={role} {{profile}}").forMember(odd));
    }

    @Test
    void anUnknownPlaceholderIsAUsageErrorNamingIt() {
        ConfigurationException unknown = assertThrows(ConfigurationException.class,
                () -> ServerTemplate.parse("srv --profile {profil}"));
        assertEquals("--server-command holds an unknown placeholder {profil}: the placeholders are {profile}, "
                + "{namespace} and {role}", unknown.getMessage());
        assertEquals(List.of("srv", "{\"a\":1}", "{}"), ServerTemplate.parse("srv '{\"a\":1}' {}").words(),
                "JSON and empty braces are no placeholders");
        assertThrows(ConfigurationException.class, () -> ServerTemplate.parse("   "));
        ConfigurationException notText = assertThrows(ConfigurationException.class,
                () -> ServerTemplate.parse("node /srv/caf\uFFFD\uFFFD/s.js {profile}"));
        assertTrue(notText.getMessage().startsWith("--server-command holds bytes that are not text in this locale's "
                + "charset"), notText.getMessage());
    }

    @Test
    void thePatternFindsExactlyTheServersTheEntriesStart() {
        ServerTemplate command = ServerTemplate.parse("python3 '/srv/my tools/server.py' --profile {profile} "
                + "--role={role}");
        String pattern = command.pattern(FLEET);
        assertEquals("(^|[\\s/])python3 /srv/my tools/server\\.py --profile (?:prgs-author --role=author|"
                + "prgs-merger --role=merger)(\\s|$)", pattern, "this roster's values, not \\S+");
        ServerPatterns patterns = ServerPatterns.compile(List.of(pattern));
        for (RosterMember member : FLEET) {
            for (String line : lines(command, member)) {
                assertTrue(patterns.matches(line), line);
            }
        }
        for (RosterMember member : OTHER_FLEET) {
            for (String line : lines(command, member)) {
                assertFalse(patterns.matches(line), "another fleet's: " + line);
            }
        }
        assertFalse(patterns.matches("python3 /srv/my tools/serverXpy --profile prgs-author --role=author"), "literal");
        assertFalse(patterns.matches("python3 /srv/my tools/server.py --profile prgs-author --role=merger"),
                "a pairing no entry starts");
    }

    @Test
    void thePatternNamesTheProgramSoAnotherCommandWithTheSameArgumentsIsNoneOfIts() {
        // Words after the program alone were "--profile prgs-author": every fleet serve of another fleet
        // with this roster's names (fleet.jar serve --profile prgs-author) was then a stray of this one's.
        ServerTemplate command = ServerTemplate.parse("/opt/srv --profile {profile}");
        ServerPatterns patterns = ServerPatterns.compile(List.of(command.pattern(FLEET)));
        for (RosterMember member : FLEET) {
            lines(command, member).forEach(line -> assertTrue(patterns.matches(line), line));
        }
        for (String other : List.of("/usr/bin/java -jar /opt/fleet/fleet.jar serve --profile prgs-author --registry "
                + "/b/registry.sqlite3", "/opt/other --profile prgs-author", "/opt/srv2 --profile prgs-author",
                "/usr/bin/python3 /opt/b/xsrv --profile prgs-author")) {
            assertFalse(patterns.matches(other), command.pattern(FLEET) + " in " + other);
        }
        ServerPatterns bare = ServerPatterns.compile(List.of(ServerTemplate.parse("srv --profile {profile}")
                .pattern(FLEET)));
        assertTrue(bare.matches("srv --profile prgs-author"));
        assertTrue(bare.matches("/usr/bin/node /usr/local/bin/srv --profile prgs-author"), "as PATH found it");
        assertFalse(bare.matches("/usr/bin/java -jar /opt/fleet/fleet.jar serve --profile prgs-author"));
    }

    @Test
    void aWrapperThatExecsTheServerIsNotInThePattern() {
        // env, nohup and the like replace themselves with the server: only the server's words show.
        List<String> wrapped = List.of("env PYTHONUNBUFFERED=1 python3 /srv/server.py --profile {profile}",
                "/usr/bin/env -u HOME -- python3 /srv/server.py --profile {profile}",
                "nohup nice -n 5 env A=1 B=2 python3 /srv/server.py --profile {profile}",
                "stdbuf -oL setsid python3 /srv/server.py --profile {profile}",
                "taskset -c 0,1 chrt --other ionice -c3 python3 /srv/server.py --profile {profile}");
        for (String line : wrapped) {
            ServerTemplate command = ServerTemplate.parse(line);
            ServerPatterns patterns = ServerPatterns.compile(List.of(command.pattern(FLEET)));
            assertTrue(patterns.matches("/usr/bin/python3 /srv/server.py --profile prgs-author"), command.pattern(FLEET));
            assertTrue(patterns.matches(String.join(" ", command.forMember(AUTHOR))), "as a row records it");
            assertFalse(patterns.matches("/usr/bin/java -jar /opt/fleet/fleet.jar serve --profile prgs-author"));
        }
    }

    @Test
    void anNpxCommandIsFoundAsNpmRunsItAndShowsIt() {
        // npx retitles itself "npm exec" and leaves its own options out of the title (npm 11).
        ServerTemplate command = ServerTemplate.parse("npx -y @acme/mcp-server --profile {profile}");
        ServerPatterns patterns = ServerPatterns.compile(List.of(command.pattern(FLEET)));
        for (String line : List.of("npx -y @acme/mcp-server --profile prgs-author",
                "node /usr/bin/npx -y @acme/mcp-server --profile prgs-author",
                "npm exec @acme/mcp-server --profile prgs-author", "npm exec -y @acme/mcp-server --profile prgs-author")) {
            assertTrue(patterns.matches(line), command.pattern(FLEET) + " in " + line);
        }
        assertFalse(patterns.matches("/usr/bin/java -jar /opt/fleet/fleet.jar serve --profile prgs-author"));
        assertFalse(patterns.matches("npm exec @acme/mcp-server --profile prgs-other"));
        ServerTemplate npmExec = ServerTemplate.parse("npm exec --yes -- @acme/mcp-server --profile {profile}");
        ServerPatterns written = ServerPatterns.compile(List.of(npmExec.pattern(FLEET)));
        assertTrue(written.matches("npm exec @acme/mcp-server --profile prgs-author"), npmExec.pattern(FLEET));
        assertTrue(written.matches("npm exec --yes -- @acme/mcp-server --profile prgs-author"), "as written");
    }

    @Test
    void oddNamesAreMatchedLiterally() {
        List<RosterMember> odd = List.of(new RosterMember("ns a", "my author", "a"),
                new RosterMember("ns.b", "a.b+(c)|[d]$^\\x", "b"), new RosterMember("ns-c", "x{role}y", "c"),
                new RosterMember("ns-d", "tab\there", "d"));
        List<RosterMember> others = List.of(new RosterMember("o1", "my", "a"), new RosterMember("o2", "aXb+(c)|[d]$^\\x",
                "b"), new RosterMember("o3", "x{role}yy", "c"), new RosterMember("o4", "xcy", "c"),
                new RosterMember("o5", "tab here", "d"), new RosterMember("o6", "my authors", "a"));
        for (String line : List.of("node /srv/s.mjs --profile {profile}", "node /srv/s.mjs --profile={profile} -v",
                "/srv/{profile}/bin/server --stdio")) {
            ServerTemplate command = ServerTemplate.parse(line);
            ServerPatterns patterns = ServerPatterns.compile(List.of(command.pattern(odd)));
            for (RosterMember member : odd) {
                lines(command, member).forEach(seen -> assertTrue(patterns.matches(seen), command.pattern(odd)
                        + " in " + seen));
            }
            for (RosterMember member : others) {
                lines(command, member).forEach(seen -> assertFalse(patterns.matches(seen), command.pattern(odd)
                        + " in " + seen));
            }
        }
    }

    @Test
    void withoutAPlaceholderThePatternIsTheCommandAndSaysSo() {
        ServerTemplate command = ServerTemplate.parse("uv run /srv/server.py");
        assertFalse(command.hasPlaceholder());
        assertEquals("(^|[\\s/])uv run /srv/server\\.py(\\s|$)", command.pattern(FLEET));
        ServerPatterns alone = ServerPatterns.compile(List.of(ServerTemplate.parse("my-mcp-server").pattern(FLEET)));
        assertTrue(alone.matches("/opt/bin/my-mcp-server"), "a program alone, as PATH found it");
        assertTrue(alone.matches("my-mcp-server --stdio"));
        assertFalse(alone.matches("my-mcp-server2"));
    }

    @Test
    void aSecretNeverReachesThePatternWhichFindsTheMaskedCommandToo() {
        ServerTemplate command = ServerTemplate.parse("node /srv/s.mjs --token s3cr3t --url=https://u:pw@h/x "
                + "--profile {profile}");
        String pattern = command.pattern(FLEET);
        assertFalse(pattern.contains("s3cr3t") || pattern.contains("pw"), pattern);
        ServerPatterns patterns = ServerPatterns.compile(List.of(pattern));
        List<String> words = command.forMember(AUTHOR);
        assertTrue(patterns.matches(String.join(" ", words)), pattern);
        assertTrue(patterns.matches(SecretMask.argv(words)), "as a row records it");
        assertFalse(patterns.matches(SecretMask.argv(command.forMember(OTHER_FLEET.get(0)))));
    }

    @Test
    void relativePathsAreNamed(@TempDir Path here, @TempDir Path checkout) throws Exception {
        assertEquals(List.of("./server.py", "bin/x", "--config=conf/a.yaml", ".", "~/s"), ServerTemplate.parse(
                "python3 ./server.py bin/x --config=conf/a.yaml --abs=/etc/x . ~/s https://h/x @org/pkg /srv/s")
                .relativePaths(List.of(here)));
        assertEquals(List.of(), ServerTemplate.parse("srv --token a/b --api-key=c/d").relativePaths(List.of(here)),
                "a secret is never shown");
        // A plain name is a path where it names a file in the operator's directory or the checkout.
        Files.writeString(here.resolve("server.py"), "");
        Files.writeString(checkout.resolve("conf.yaml"), "");
        Files.writeString(here.resolve("python3"), "");
        Files.createDirectory(checkout.resolve("docs"));
        assertEquals(List.of("server.py", "--config=conf.yaml"), ServerTemplate.parse("python3 server.py "
                + "--config=conf.yaml --mode docs --profile {profile} -v missing.py").relativePaths(List.of(here,
                checkout)), "not the program (PATH finds it), a folder's name (a mere value, often), an option nor "
                + "a name that is no file");
    }

    /**
     * The command lines an entry for {@code member} starts, as a process table joins them: its server,
     * with the program as the entry names it, as PATH found it, and under the interpreter a script's
     * first line names (the kernel puts it first); and the {@code fleet serve} around it.
     */
    private static List<String> lines(ServerTemplate command, RosterMember member) {
        List<String> words = command.forMember(member);
        String server = String.join(" ", words);
        List<String> lines = new ArrayList<>(List.of(server, "/usr/bin/python3.11 " + server,
                "/usr/bin/java -jar /opt/fleet/fleet.jar serve --profile " + member.profile() + " -- " + server));
        if (!words.get(0).contains("/")) {
            lines.add("/usr/local/bin/" + server);
        }
        return lines;
    }
}
