package dev.fleet.cli.mcpconfig;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fleet.cli.exit.ConfigurationException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code --server-command}'s words as a POSIX shell splits them, one case a row, each also put to the
 * host's own {@code /bin/sh}: the table cannot hold an expectation that a real shell disagrees with.
 */
class ShellWordsTest {

    static Stream<Arguments> splits() {
        return Stream.of(
                split("  uv run 'my server.py' --name=\"a b\" it\\'s '$HOME' \"\"",
                        "uv", "run", "my server.py", "--name=a b", "it's", "$HOME", ""),
                split("srv \"C:\\dir\" \"a\\nb\"", "srv", "C:\\dir", "a\\nb"),
                split("\"a\\$b\" \"a\\`b\" \"a\\\"b\" \"a\\\\b\"", "a$b", "a`b", "a\"b", "a\\b"),
                split("\"a\\\nb\" c\\\nd", "ab", "cd"),
                split("a\\ b a\\\\b a\\'b a\\\"b a\\x", "a b", "a\\b", "a'b", "a\"b", "ax"),
                split("'a\\b' 'it'\\''s' \"it's\"", "a\\b", "it's", "it's"),
                split("srv a\\", "srv", "a\\"),
                split("a\tb \t c", "a", "b", "c"),
                split("a\"b\"'c'd", "abcd"),
                split("'' \"\" x''", "", "", "x"),
                split("x#y '#z' \"#\" \\#", "x#y", "#z", "#", "#"),
                split("\"a\nb\" 'c\nd'", "a\nb", "c\nd"),
                split("'|' \"&;<>()\" \\| \\$HOME", "|", "&;<>()", "|", "$HOME"),
                split("node /srv/{profile}/s.mjs --ns={namespace} é\rü", "node", "/srv/{profile}/s.mjs",
                        "--ns={namespace}", "é\rü"));
    }

    @ParameterizedTest
    @MethodSource("splits")
    void wordsAreSplitAsAPosixShellSplitsThem(String line, List<String> words) throws Exception {
        assertEquals(words, ShellWords.split(line, "--server-command"));
        assertEquals(words, bySh(line), "what /bin/sh makes of it");
    }

    static Stream<Arguments> refusals() {
        return Stream.of(
                refused("python3 'server.py", "--server-command has an unclosed single quote"),
                refused("python3 \"server.py", "--server-command has an unclosed double quote"),
                refused("\"a\\\"", "--server-command has an unclosed double quote"),
                refused("srv | tee log", "--server-command holds an unquoted '|', which a shell would take as an "
                        + "operator, and fleet runs no shell: quote it ('|') or leave it out"),
                refused("srv;x", "';'"), refused("srv &", "'&'"), refused("srv >log", "'>'"), refused("srv <in", "'<'"),
                refused("(srv)", "'('"), refused("srv\nother", "line break"),
                refused("srv #comment", "--server-command holds an unquoted '#' at the start of a word, where a "
                        + "shell starts a comment: quote it ('#') or leave the rest out"),
                refused("srv $HOME", "--server-command holds '$' outside single quotes, which a shell would expand, "
                        + "and fleet runs no shell: write the value itself, or quote it ('$')"),
                refused("srv \"$HOME\"", "'$'"), refused("srv `id`", "'`'"), refused("srv \"`id`\"", "'`'"));
    }

    @ParameterizedTest
    @MethodSource("refusals")
    void whatOnlyAShellCouldRunIsOneUsageError(String line, String message) {
        ConfigurationException refused = assertThrows(ConfigurationException.class,
                () -> ServerTemplate.parse(line));
        String why = refused.getMessage();
        assertTrue(why.startsWith("--server-command ") && why.contains(message), why);
        assertEquals(1, why.lines().count(), why);
    }

    private static Arguments split(String line, String... words) {
        return Arguments.of(line, List.of(words));
    }

    private static Arguments refused(String line, String message) {
        return Arguments.of(line, message);
    }

    /**
     * The arguments {@code printf '%s\0' LINE} prints, as the shell split LINE. The script goes to sh's
     * stdin as UTF-8 bytes: as an argument the JVM would encode it in the locale's charset, and CI gives none.
     */
    private static List<String> bySh(String line) throws IOException, InterruptedException {
        assumeTrue(Files.isExecutable(Path.of("/bin/sh")), "no /bin/sh to compare with");
        Process sh = new ProcessBuilder("/bin/sh").redirectErrorStream(true).start();
        try (var script = sh.getOutputStream()) {
            script.write(("printf '%s\\0' " + line).getBytes(StandardCharsets.UTF_8));
        }
        byte[] out = sh.getInputStream().readAllBytes();
        assertTrue(sh.waitFor(30, TimeUnit.SECONDS), "sh did not exit");
        String printed = new String(out, StandardCharsets.UTF_8);
        assertEquals(0, sh.exitValue(), printed);
        List<String> words = new ArrayList<>(Arrays.asList(printed.split("\0", -1)));
        words.remove(words.size() - 1); // after the last terminator
        return words;
    }
}
