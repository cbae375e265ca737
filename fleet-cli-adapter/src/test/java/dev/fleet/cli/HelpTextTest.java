package dev.fleet.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.cli.completion.CompletionCommand;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Help text a person can copy from and read, as a terminal shows it (80 columns) and as docs/CLI.md
 * does ({@link CliReference}'s width): no path, file name, variable or URL a description names is cut in
 * two, and a description line broken by hand is printed as written (the option column's width differs
 * from verb to verb, so a line that fits one verb's may break again in another's, leaving a word or two
 * on a line of their own). A description element that ends a sentence is a paragraph, which picocli wraps.
 */
class HelpTextTest {

    private static final int[] WIDTHS = {80, CliReference.WIDTH};
    /** Names a reader copies: a path, a dotted file name, a variable, a URL (after its surrounding punctuation). */
    private static final Pattern COPIED = Pattern.compile("[~$./\\w:@<>|-]*(?:/|\\.\\p{Alpha}|^\\$|^~)[~$./\\w:@<>|-]*");

    @Test
    void everyNameADescriptionGivesIsPrintedWhole() {
        List<String> checked = new ArrayList<>();
        for (int width : WIDTHS) {
            for (CommandLine command : commands(width)) {
                List<String> lines = lines(command);
                for (String name : copiedNames(command)) {
                    checked.add(name);
                    assertTrue(lines.stream().anyMatch(line -> line.contains(name)), "'" + name + "' is cut across "
                            + "lines at " + width + " columns in\n" + String.join("\n", lines));
                }
            }
        }
        for (String name : List.of(CompletionCommand.INSTALL_PATH, "gitea-tools/control_plane.sqlite3", "~/.local/state",
                ".vscode/mcp.json", "claude_desktop_config.json", "$XDG_STATE_HOME", "postgresql://USER@HOST:PORT/DB")) {
            assertTrue(checked.contains(name), "the check saw " + name + " (it saw " + checked + ")");
        }
    }

    @Test
    void everyLineOfADescriptionBrokenByHandIsPrintedAsWritten() {
        for (int width : WIDTHS) {
            for (CommandLine command : commands(width)) {
                List<String> lines = lines(command);
                for (OptionSpec option : command.getCommandSpec().options()) {
                    for (String element : option.description()) {
                        String text = element.strip();
                        boolean paragraph = text.endsWith(".") || text.endsWith(":") || text.endsWith(")");
                        assertTrue(paragraph || lines.stream().anyMatch(line -> line.endsWith(text)),
                                "fleet " + command.getCommandSpec().qualifiedName(" ") + " " + option.longestName()
                                        + ": the line '" + text + "' breaks again at " + width + " columns:\n"
                                        + String.join("\n", lines));
                    }
                }
            }
        }
    }

    private static List<String> lines(CommandLine command) {
        return command.getUsageMessage(CommandLine.Help.Ansi.OFF).lines().map(String::strip).toList();
    }

    private static List<String> copiedNames(CommandLine command) {
        Stream<String> texts = Stream.concat(Stream.of(command.getCommandSpec().usageMessage().description()),
                command.getCommandSpec().options().stream().flatMap(option -> Stream.of(option.description())));
        List<String> names = new ArrayList<>();
        texts.flatMap(text -> Stream.of(text.split("\\s+"))).forEach(word -> {
            Matcher name = COPIED.matcher(word.replaceAll("^[(\"'`]+|[)\"'`.,;:]+$", ""));
            if (name.matches() && name.group().length() > 3) {
                names.add(name.group());
            }
        });
        return names;
    }

    /** Every command, rendered at {@code width} columns whatever the terminal, as {@link CliReference} renders them. */
    private static List<CommandLine> commands(int width) {
        CommandLine fleet = FleetCli.commandLine();
        fleet.setUsageHelpAutoWidth(false);
        fleet.setUsageHelpWidth(width);
        List<CommandLine> commands = new ArrayList<>();
        collect(fleet, commands);
        return commands;
    }

    private static void collect(CommandLine command, List<CommandLine> commands) {
        commands.add(command);
        command.getSubcommands().values().forEach(sub -> collect(sub, commands));
    }
}
