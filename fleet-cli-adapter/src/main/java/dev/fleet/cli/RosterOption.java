package dev.fleet.cli;

import dev.fleet.domain.Roster;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Option;

/** {@code --roster FILE}, else {@code FLEET_ROSTER}, else the embedded default roster. */
final class RosterOption {

    static final String ENV = "FLEET_ROSTER";

    @Option(names = "--roster", paramLabel = "FILE",
            description = "Roster file (JSON). Default: $FLEET_ROSTER, else the embedded default roster.")
    Path file;

    Roster roster() {
        return roster(System.getenv());
    }

    Roster roster(Map<String, String> env) {
        Path chosen = file;
        if (chosen == null && env.get(ENV) != null && !env.get(ENV).isBlank()) {
            chosen = Path.of(env.get(ENV));
        }
        return chosen == null ? Roster.defaultRoster() : RosterFile.load(chosen);
    }
}
