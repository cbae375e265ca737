package dev.fleet.cli.completion;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.cli.FleetCli;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The completion script offers only what the commands accept, spelled as they accept it. */
class CompletionCandidatesTest {

    private static final Pattern FUNCTION = Pattern.compile("(?m)^function (_picocli_fleet\\w*)\\(\\) \\{$");
    /** {@code local textjson_option_args=("text" "json") # --format values}, or a positional's. */
    private static final Pattern VALUES = Pattern.compile(
            "(?m)^  local \\w+_(option|pos_param)_args=\\(([^)]*)\\) # (\\S+) values$");

    @Test
    void everyCandidateOfEveryOptionInTheScriptIsAcceptedByItsCommand() {
        String script = CompletionCommand.script(FleetCli.commandLine("completion"));
        Map<String, List<String>> commands = new HashMap<>();
        walk(FleetCli.commandLine("completion"), List.of(), commands);
        Matcher function = FUNCTION.matcher(script);
        List<Integer> starts = new ArrayList<>();
        List<String> names = new ArrayList<>();
        while (function.find()) {
            starts.add(function.end());
            names.add(function.group(1));
        }
        int checked = 0;
        for (int f = 0; f < names.size(); f++) {
            String body = script.substring(starts.get(f), f + 1 < starts.size() ? starts.get(f + 1) : script.length());
            List<String> path = commands.get(names.get(f));
            assertTrue(path != null, "a function for a command: " + names.get(f));
            Matcher values = VALUES.matcher(body);
            while (values.find()) {
                for (String quoted : values.group(2).trim().split(" ")) {
                    String candidate = quoted.substring(1, quoted.length() - 1);
                    List<String> args = new ArrayList<>(path);
                    if (values.group(1).equals("option")) {
                        args.add(values.group(3));
                    }
                    args.add(candidate);
                    args.addAll(otherRequiredOptions(path, values.group(3)));
                    assertEquals(candidate.toLowerCase(java.util.Locale.ROOT), candidate, "typed as offered");
                    assertDoesNotThrow(() -> FleetCli.commandLine("completion").parseArgs(args.toArray(String[]::new)),
                            "fleet " + String.join(" ", args));
                    checked++;
                }
            }
        }
        // --format text|json on four verbs and assess's four formats, watch's text|jsonl, wait's --for
        // gate|change, mcp-config's two formats, host's text|json|sh, --transport, --status, the shells,
        // the profiles.
        assertEquals(4 * 2 + 4 + 2 + 2 + 2 + 3 + 2 + 2 + 2 + 5, checked);
    }

    @Test
    void profilesCompleteAsTheDefaultRosterNamesThem() {
        String script = CompletionCommand.script(FleetCli.commandLine("completion"));
        String profiles = String.join(" ", Roster.defaultRoster().members().stream().map(RosterMember::profile)
                .map(profile -> "\"" + profile + "\"").toList());
        assertTrue(script.contains("=(" + profiles + ") # --profile values"), script);
    }

    @Test
    void pathOptionsCompleteFilesAndTheHeaderNamesTheReadmesFolder() {
        String script = CompletionCommand.script(FleetCli.commandLine("completion"));
        String assess = script.substring(script.indexOf("function _picocli_fleet_assess()"),
                script.indexOf("function _picocli_fleet_serve()"));
        for (String option : List.of("--registry", "--roster")) {
            String branch = assess.substring(assess.indexOf("'" + option + "')"));
            assertTrue(branch.substring(0, branch.indexOf(";;")).contains("compgen -f"), option + ": " + branch);
        }
        assertTrue(script.contains("# bash: save this script as " + CompletionCommand.INSTALL_PATH + "\n"), script);
        assertFalse(script.contains("bash-completion.d"), "picocli's own folders are gone");
    }

    /** Each required option other than {@code tested}, with its first candidate (serve's --profile). */
    private static List<String> otherRequiredOptions(List<String> path, String tested) {
        CommandLine command = FleetCli.commandLine("completion");
        for (String name : path) {
            command = command.getSubcommands().get(name);
        }
        List<String> args = new ArrayList<>();
        command.getCommandSpec().options().stream().filter(option -> option.required())
                .filter(option -> !List.of(option.names()).contains(tested)).forEach(option -> {
                    args.add(option.longestName());
                    args.add(option.completionCandidates().iterator().next());
                });
        return args;
    }

    private static void walk(CommandLine command, List<String> path, Map<String, List<String>> commands) {
        StringBuilder function = new StringBuilder("_picocli_fleet");
        path.forEach(name -> function.append('_').append(name.replaceAll("[^A-Za-z0-9]", "")));
        commands.put(function.toString(), path);
        command.getSubcommands().forEach((name, sub) -> {
            List<String> deeper = new ArrayList<>(path);
            deeper.add(name);
            walk(sub, deeper, commands);
        });
    }
}
