package dev.fleet.cli.option;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.fleet.cli.exit.ConfigurationException;
import dev.fleet.domain.Binding;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RosterFileTest {

    @TempDir
    Path dir;

    private Path write(String json) throws IOException {
        return Files.writeString(dir.resolve("roster.json"), json.replace('\'', '"'));
    }

    private String rejection(String json) throws IOException {
        Path file = write(json);
        String message = assertThrows(ConfigurationException.class, () -> load(file)).getMessage();
        assertEquals(1, message.lines().count(), message);
        return message.replace("roster " + file + ": ", "");
    }

    @Test
    void aFifoIsRefusedAtOnceAndAHugeFileUnread() throws Exception {
        Path fifo = dir.resolve("roster.fifo");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        org.junit.jupiter.api.Assumptions.assumeTrue(mkfifo.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)
                && mkfifo.exitValue() == 0, "mkfifo unavailable");
        String message = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(60),
                () -> assertThrows(ConfigurationException.class, () -> load(fifo)).getMessage());
        assertEquals("roster " + fifo + ": not a regular file (a FIFO, socket, device or directory)", message);

        Path huge = dir.resolve("huge.json");
        java.nio.file.Files.write(huge, new byte[2 * 1024 * 1024]);
        assertEquals("roster " + huge + ": larger than 1024 KiB; a roster is a few lines of JSON",
                assertThrows(ConfigurationException.class, () -> load(huge)).getMessage());
    }

    @Test
    void readsAFullRoster() throws IOException {
        Roster roster = load(write("{'binding': {'remote': 'origin', 'org': 'acme', 'repo': 'widgets'},"
                + " 'members': [{'namespace': 'w-author', 'profile': 'w-author', 'role': 'author'}],"
                + " 'server_process_patterns': ['widget-server']}"));
        assertEquals(new Binding("origin", "acme", "widgets"), roster.binding());
        assertEquals(List.of(new RosterMember("w-author", "w-author", "author")), roster.members());
        assertEquals(List.of("widget-server"), roster.serverProcessPatterns());
    }

    @Test
    void patternsDefaultWhenAbsent() throws IOException {
        Roster roster = load(write("{'binding': {'remote': 'r', 'org': 'o', 'repo': 'p'},"
                + " 'members': [{'namespace': 'n', 'profile': 'p', 'role': 'r'}]}"));
        assertEquals(Roster.DEFAULT_SERVER_PROCESS_PATTERNS, roster.serverProcessPatterns());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{'members': [{'namespace': 'n', 'profile': 'p', 'role': 'r'}]} | binding is required",
        "{'binding': {'remote': 'r', 'org': 'o', 'repo': 'p'}} | members is required",
        "{'members': []} | binding is required; members must list at least one member",
        "{} | binding is required; members is required",
        "{'binding': {'remote': 'r', 'org': 'o', 'repo': 'p'}, 'members': []} | members must list at least one member",
        "{'binding': {'remote': 'r', 'org': 'o', 'repo': 'p', 'branch': 'x'}, 'members': []} | unknown key 'branch' in binding",
        "{'binding': {'remote': 'r', 'org': 'o', 'repo': 'p'}, 'members': [], 'extra': 1} | unknown key 'extra' in the top level",
        "{'binding': {'remote': 'r', 'org': '', 'repo': 'p'}, 'members': [{'namespace': 'n', 'profile': 'p', 'role': 'r'}]} | binding.org must be a non-blank string",
        "{'binding': {'remote': 'r', 'org': 'o', 'repo': 'p'}, 'members': [{'namespace': 'n', 'profile': 'p'}]} | members[0].role is required",
        "{'binding': {'remote': 'r', 'org': 'o', 'repo': 'p'}, 'members': [{'namespace': 'n', 'profile': 'p', 'role': 7}]} | members[0].role must be a string",
        "{'binding': {'remote': 'r', 'org': 'o', 'repo': 'p'}, 'members': [{'namespace': 'a', 'profile': 'p', 'role': 'r'}, {'namespace': 'b', 'profile': 'p', 'role': 'r'}]} | duplicate profile 'p'",
        "{'binding': {'remote': 'r', 'org': 'o', 'repo': 'p'}, 'members': [{'namespace': 'a', 'profile': 'p', 'role': 'r'}, {'namespace': 'a', 'profile': 'q', 'role': 'r'}]} | duplicate namespace 'a'",
        "{'binding': {'remote': 'r', 'org': 'o', 'repo': 'p'}, 'members': [{'namespace': 'n', 'profile': 'p', 'role': 'r'}], 'server_process_patterns': 'x'} | server_process_patterns must be a list of strings",
    })
    void everyMistakeHasItsOwnMessage(String json, String expected) throws IOException {
        assertEquals(expected, rejection(json));
    }

    private static final String WITH_PATTERNS = "{'binding': {'remote': 'r', 'org': 'o', 'repo': 'p'},"
            + " 'members': [{'namespace': 'n', 'profile': 'p', 'role': 'r'}], 'server_process_patterns': ";

    @Test
    void aPatternThatDoesNotCompileIsNamed() throws IOException {
        assertEquals("server_process_patterns[0] does not compile as a linear-time (RE2) pattern: "
                + "missing closing ) `(` in '('", rejection(WITH_PATTERNS + "['(']}"));
    }

    /** The hang began with a back-reference: RE2J has none, so the roster is refused up front. */
    @Test
    void aBackReferenceIsARosterErrorNamingIt() throws IOException {
        assertEquals("server_process_patterns[1] does not compile as a linear-time (RE2) pattern: "
                + "invalid escape sequence `\\1` in '(a)\\1'",
                rejection(WITH_PATTERNS + "['fleet\\\\.jar serve', '(a)\\\\1']}"));
    }

    @Test
    void aLookAroundIsARosterErrorNamingIt() throws IOException {
        assertEquals("server_process_patterns[0] does not compile as a linear-time (RE2) pattern: "
                + "invalid or unsupported Perl syntax `(?=` in '(?=fleet)fleet'",
                rejection(WITH_PATTERNS + "['(?=fleet)fleet']}"));
        assertEquals("server_process_patterns[0] does not compile as a linear-time (RE2) pattern: "
                + "invalid named capture `(?<!x)fleet` in '(?<!x)fleet'",
                rejection(WITH_PATTERNS + "['(?<!x)fleet']}"));
    }

    @Test
    void aPatternWithALineBreakStillGivesOneLine() throws IOException {
        assertEquals("server_process_patterns[0] does not compile as a linear-time (RE2) pattern: "
                + "invalid escape sequence `\\1` in '(a)\\x0a\\1'", rejection(WITH_PATTERNS + "['(a)\\n\\\\1']}"));
    }

    /** RE2J is the judge: RE2 syntax the JDK's engine lacks is a valid pattern. */
    @Test
    void re2SyntaxIsAccepted() throws IOException {
        Roster roster = load(write(WITH_PATTERNS + "['(?P<jar>fleet\\\\.jar) serve']}"));
        assertEquals(List.of("(?P<jar>fleet\\.jar) serve"), roster.serverProcessPatterns());
    }

    /** Jackson's internals (its {@code [Source: ...]} locations, class and feature names) never reach the line. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{'binding': | invalid JSON: the file ends inside the object opened at line 1, column 1 (a closing } is missing) at line 1, column 12",
        "{'binding': {'remote': 'r'} | invalid JSON: the file ends inside the object opened at line 1, column 1 (a closing } is missing) at line 1, column 28",
        "{'members': [ | invalid JSON: the file ends inside the list opened at line 1, column 13 (a closing ] is missing) at line 1, column 14",
        "{'binding': {'remote': 'r | invalid JSON: the file ends inside a string (a closing \" is missing) at line 1, column 26",
        "{'binding': {}, 'binding': {}} | invalid JSON: the key 'binding' appears twice in one object at line 1, column 26",
        "{'members': []} {} | invalid JSON: more JSON follows the first value (a roster file is one JSON object) at line 1, column 17",
        "{'binding': nul} | invalid JSON: Unrecognized token 'nul': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false') at line 1, column 13",
    })
    void invalidJsonIsOneLineInTheReadersWords(String json, String expected) throws IOException {
        assertEquals(expected, rejection(json));
    }

    @Test
    void aNumberBeyondJacksonsLimitNamesNoInternals() throws IOException {
        assertEquals("invalid JSON: Number value length (2000) exceeds the maximum allowed (1000)",
                rejection("{'members': [" + "9".repeat(2_000) + "]}"));
    }

    @Test
    void aFileThatIsNotUtf8SaysSo() throws IOException {
        Path latin1 = Files.write(dir.resolve("roster.json"), "{\"binding\": \"caf\u00e9\"}".getBytes(
                java.nio.charset.StandardCharsets.ISO_8859_1));
        assertEquals("roster " + latin1 + ": not UTF-8 text (a roster is JSON in UTF-8)",
                assertThrows(ConfigurationException.class, () -> load(latin1)).getMessage());
    }

    @Test
    void aByteOrderMarkBeforeTheJsonIsIgnored() throws IOException {
        Path marked = Files.writeString(dir.resolve("roster.json"), "\uFEFF{\"binding\": {\"remote\": \"prgs\", "
                + "\"org\": \"o\", \"repo\": \"r\"}, \"members\": [{\"namespace\": \"gitea-author\", "
                + "\"profile\": \"prgs-author\", \"role\": \"author\"}]}");
        assertEquals(1, load(marked).members().size());
    }

    @Test
    void aMissingFileIsOneLine() {
        Path missing = dir.resolve("nope.json");
        assertEquals("roster " + missing + ": no such file",
                assertThrows(ConfigurationException.class, () -> load(missing)).getMessage());
    }

    @Test
    void theEnvironmentNamesTheRosterWhenNoOptionDoes() throws IOException {
        Path file = write("{'binding': {'remote': 'r', 'org': 'o', 'repo': 'p'},"
                + " 'members': [{'namespace': 'n', 'profile': 'p', 'role': 'r'}]}");
        RosterOption option = new RosterOption();
        assertEquals(Roster.defaultRoster(), option.roster(Map.of()));
        assertEquals("n", option.roster(Map.of("FLEET_ROSTER", file.toString())).members().get(0).namespace());
    }

    /** A roster file as {@code --roster} names it. */
    private static Roster load(Path file) {
        return RosterFile.load(file, "roster " + file);
    }
}
