package dev.fleet.cli.option;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.cli.FleetCli;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * Every enum-typed value is refused naming the spellings the help and docs use, and taken in any case, as
 * declared too: picocli's own refusal listed the constants ({@code [GATE, CHANGE]}).
 */
class SpellingsTest {

    @Test
    void aRefusalNamesTheValuesAsTheHelpWritesThem() {
        for (List<String> args : List.of(List.of("wait", "--for", "gat"), List.of("mcp-config", "--format", "x"),
                List.of("completion", "zsh2"), List.of("assess", "--format", "xml"))) {
            ParameterException refused = assertThrows(ParameterException.class,
                    () -> FleetCli.commandLine(args.get(0)).parseArgs(args.toArray(String[]::new)));
            String expected = switch (args.get(0)) {
                case "wait" -> "[gate, change] but was 'gat'";
                case "mcp-config" -> "[mcp-json, claude-desktop] but was 'x'";
                case "completion" -> "[bash, zsh] but was 'zsh2'";
                default -> "[text, json, prometheus, openmetrics] but was 'xml'";
            };
            assertTrue(refused.getMessage().endsWith("expected one of " + expected), refused.getMessage());
        }
    }

    @Test
    void aValueIsTakenInAnyCaseWrittenOrDeclared() {
        for (String written : List.of("claude-desktop", "Claude-Desktop", "CLAUDE_DESKTOP", "claude_desktop")) {
            CommandLine cli = FleetCli.commandLine("mcp-config");
            CommandLine.ParseResult parsed = cli.parseArgs("mcp-config", "--format", written);
            Enum<?> dialect = parsed.subcommand().matchedOptionValue("--format", null);
            assertEquals("CLAUDE_DESKTOP", dialect.name(), written);
        }
    }
}
