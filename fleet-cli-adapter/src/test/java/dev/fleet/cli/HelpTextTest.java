package dev.fleet.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.cli.completion.CompletionCommand;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Help text a person can copy from: picocli wraps at 80 columns, and no path may be cut in two. */
class HelpTextTest {

    private static final List<String> PATHS = List.of(CompletionCommand.INSTALL_PATH,
            "gitea-tools/control_plane.sqlite3", "~/.local/state", "claude_desktop_config.json", "~/.zshrc");

    @Test
    void noPathIsSplitAcrossLines() {
        List<String> helps = new ArrayList<>();
        collect(FleetCli.commandLine("help"), helps);
        String all = String.join("\n", helps);
        for (String path : PATHS) {
            assertTrue(all.contains(path), "the help names " + path);
        }
        for (String help : helps) {
            for (String line : help.lines().toList()) {
                String trimmed = line.strip();
                assertFalse(trimmed.endsWith("/") || trimmed.endsWith("~/.") || trimmed.startsWith("/"),
                        "a path cut at the line end: '" + line + "' in\n" + help);
            }
        }
    }

    private static void collect(CommandLine command, List<String> helps) {
        helps.add(command.getUsageMessage(CommandLine.Help.Ansi.OFF));
        command.getSubcommands().values().forEach(sub -> collect(sub, helps));
    }
}
