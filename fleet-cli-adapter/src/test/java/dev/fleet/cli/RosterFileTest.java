package dev.fleet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
        String message = assertThrows(ConfigurationException.class, () -> RosterFile.load(file)).getMessage();
        assertEquals(1, message.lines().count(), message);
        return message.replace("roster " + file + ": ", "");
    }

    @Test
    void readsAFullRoster() throws IOException {
        Roster roster = RosterFile.load(write("{'binding': {'remote': 'origin', 'org': 'acme', 'repo': 'widgets'},"
                + " 'members': [{'namespace': 'w-author', 'profile': 'w-author', 'role': 'author'}],"
                + " 'server_process_patterns': ['widget-server']}"));
        assertEquals(new Binding("origin", "acme", "widgets"), roster.binding());
        assertEquals(List.of(new RosterMember("w-author", "w-author", "author")), roster.members());
        assertEquals(List.of("widget-server"), roster.serverProcessPatterns());
    }

    @Test
    void patternsDefaultWhenAbsent() throws IOException {
        Roster roster = RosterFile.load(write("{'binding': {'remote': 'r', 'org': 'o', 'repo': 'p'},"
                + " 'members': [{'namespace': 'n', 'profile': 'p', 'role': 'r'}]}"));
        assertEquals(Roster.DEFAULT_SERVER_PROCESS_PATTERNS, roster.serverProcessPatterns());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{'members': [{'namespace': 'n', 'profile': 'p', 'role': 'r'}]} | binding is required",
        "{'binding': {'remote': 'r', 'org': 'o', 'repo': 'p'}} | members is required",
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

    @Test
    void aPatternThatDoesNotCompileIsNamed() throws IOException {
        String message = rejection("{'binding': {'remote': 'r', 'org': 'o', 'repo': 'p'},"
                + " 'members': [{'namespace': 'n', 'profile': 'p', 'role': 'r'}], 'server_process_patterns': ['(']}");
        assertEquals(true, message.startsWith("server_process_patterns[0] does not compile"), message);
    }

    @Test
    void invalidJsonAndDuplicateKeysAndMissingFilesAreOneLine() throws IOException {
        assertEquals(true, rejection("{'binding': ").startsWith("invalid JSON"));
        assertEquals(true, rejection("{'binding': {}, 'binding': {}}").startsWith("invalid JSON: Duplicate field"));
        assertEquals(true, rejection("{'binding': {'remote': 'r', 'org': 'o', 'repo': 'p'}, 'members': "
                + "[{'namespace': 'n', 'profile': 'p', 'role': 'r'}]} {}").startsWith("invalid JSON: Trailing token"));
        Path missing = dir.resolve("nope.json");
        assertEquals("roster " + missing + ": no such file",
                assertThrows(ConfigurationException.class, () -> RosterFile.load(missing)).getMessage());
    }

    @Test
    void theEnvironmentNamesTheRosterWhenNoOptionDoes() throws IOException {
        Path file = write("{'binding': {'remote': 'r', 'org': 'o', 'repo': 'p'},"
                + " 'members': [{'namespace': 'n', 'profile': 'p', 'role': 'r'}]}");
        RosterOption option = new RosterOption();
        assertEquals(Roster.defaultRoster(), option.roster(Map.of()));
        assertEquals("n", option.roster(Map.of("FLEET_ROSTER", file.toString())).members().get(0).namespace());
    }
}
