package dev.fleet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A one-shot verb models only itself (picocli's model building dominated a cold {@code assess});
 * anything that shows or names the verbs gets all of them, in help's order.
 */
class VerbsForTest {

    private static final List<String> EVERY_VERB = List.of("assess", "watch", "wait", "dashboard", "serve",
            "registry", "processes", "host", "roster", "demo", "mcp-config", "completion", "help");

    @Test
    void aVerbThatStandsAloneModelsOnlyItself() {
        for (String verb : List.of("assess", "watch", "wait", "dashboard", "serve", "registry", "processes", "host",
                "roster", "demo", "mcp-config")) {
            assertEquals(List.of(verb), List.copyOf(FleetCli.verbsFor(verb, "--help").keySet()));
        }
    }

    @Test
    void whateverShowsOrNamesTheVerbsGetsEveryOne() {
        for (String[] args : new String[][] {{}, {"help"}, {"help", "assess"}, {"completion", "bash"}, {"--help"},
                {"--version"}, {"asses"}, {"--format", "json", "assess"}}) {
            assertEquals(EVERY_VERB, List.copyOf(FleetCli.verbsFor(args).keySet()), String.join(" ", args));
        }
    }
}
