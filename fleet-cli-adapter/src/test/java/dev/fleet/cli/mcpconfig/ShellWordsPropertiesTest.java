package dev.fleet.cli.mcpconfig;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * Any list of words, each quoted as a POSIX shell reads it back (in single quotes, in double quotes,
 * or a backslash before every character) and joined by blanks, splits into that very list: whatever
 * the words hold (quotes, backslashes, blanks, line breaks, operators, {@code $}, {@code #}).
 */
class ShellWordsPropertiesTest {

    private static final List<String> CHARACTERS = List.of("a", "Z", "0", "-", "=", "/", ".", " ", "\t", "\n", "\r",
            "'", "\"", "\\", "$", "`", "|", "&", ";", "<", ">", "(", ")", "#", "~", "*", "?", "[", "{", "é", "€", "😀");

    @Test
    void quotingAnyWordsAndSplittingGivesThemBack() {
        qt().withExamples(2000).forAll(commands()).checkAssert(command ->
                assertEquals(command.words(), ShellWords.split(command.line(), "--server-command"), command.line()));
    }

    private static Gen<Command> commands() {
        Gen<String> words = lists().of(Generate.pick(CHARACTERS)).ofSizeBetween(0, 8)
                .map(characters -> String.join("", characters));
        Gen<Quoted> quoted = words.zip(integers().between(0, 2), Quoted::new);
        Gen<String> blanks = Generate.pick(List.of(" ", "\t", "  ", " \t "));
        return lists().of(quoted).ofSizeBetween(1, 6).zip(blanks, ShellWordsPropertiesTest::command);
    }

    private static Command command(List<Quoted> quoted, String blank) {
        List<String> words = new ArrayList<>();
        List<String> written = new ArrayList<>();
        for (Quoted word : quoted) {
            words.add(word.word());
            written.add(word.quoted());
        }
        return new Command(List.copyOf(words), String.join(blank, written));
    }

    record Command(List<String> words, String line) {
    }

    /** A word and how it is quoted: 0 in single quotes, 1 in double quotes, 2 a backslash before each character. */
    record Quoted(String word, int style) {

        String quoted() {
            return switch (style) {
                case 0 -> "'" + word.replace("'", "'\\''") + "'";
                case 1 -> "\"" + word.replaceAll("([\"\\\\$`])", "\\\\$1") + "\"";
                default -> word.isEmpty() ? "''" : backslashed();
            };
        }

        /** Each character after a backslash, but a line break, which a backslash would remove, in single quotes. */
        private String backslashed() {
            StringBuilder quoted = new StringBuilder();
            word.codePoints().forEach(c -> {
                if (c == '\n') {
                    quoted.append("'\n'");
                } else {
                    quoted.append('\\').appendCodePoint(c);
                }
            });
            return quoted.toString();
        }
    }
}
