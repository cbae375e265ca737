package dev.fleet.cli.option;

import dev.fleet.cli.exit.ConfigurationException;
import dev.fleet.domain.Printable;
import dev.fleet.domain.Roster;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/** {@code --roster FILE}, else {@code FLEET_ROSTER}, else the embedded default roster. */
public final class RosterOption {

    public static final String ENV = "FLEET_ROSTER";

    @Option(names = "--roster", paramLabel = "FILE", converter = PathConverter.class,
            description = "Roster file (JSON). Default: $FLEET_ROSTER, else the embedded default roster.")
    Path file;

    public Roster roster() {
        return roster(System.getenv());
    }

    Roster roster(Map<String, String> env) {
        Path chosen = file(env);
        if (chosen == null) {
            return Roster.defaultRoster();
        }
        // An error names the variable when it named the file: the operator may not know it is set.
        return RosterFile.load(chosen, file == null ? "roster " + chosen + " (from $" + ENV + ")" : "roster " + chosen);
    }

    /** The roster file in effect, absolute, or null for the embedded default. */
    public Path file() {
        return file(System.getenv());
    }

    private Path file(Map<String, String> env) {
        Path chosen = file;
        if (chosen == null && env.get(ENV) != null && !env.get(ENV).isBlank()) {
            try {
                chosen = new PathConverter().convert(env.get(ENV));
            } catch (TypeConversionException e) {
                throw new ConfigurationException("$" + ENV + ": " + e.getMessage());
            }
        }
        return chosen == null ? null : KernelPath.of(chosen);
    }

    /** The file {@code --roster} names, absolute, or null when the option is not given (whatever {@code FLEET_ROSTER} says). */
    public Path named() {
        return file == null ? null : KernelPath.of(file);
    }

    /** Where the roster came from, for people: the file and what named it, or the embedded default. */
    public String source() {
        Path chosen = file();
        if (chosen == null) {
            return "built-in default";
        }
        return Printable.of(chosen.toString()) + (file != null ? " (--roster)" : " ($" + ENV + ")");
    }
}
