package dev.fleet.cli;

import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Locale;

/**
 * What shell completion offers for an option, spelled as the command accepts it typed: picocli
 * would offer an enum's constants as declared ({@code JSON}, {@code MCP_JSON}), which a case
 * sensitive eye reads as the only spelling and a converter may reject.
 */
final class Candidates {

    private Candidates() {
    }

    /** An enum's constants in lower case, {@code _} written {@code -}. */
    abstract static class Named<E extends Enum<E>> implements Iterable<String> {
        private final Class<E> type;

        Named(Class<E> type) {
            this.type = type;
        }

        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(type.getEnumConstants())
                    .map(constant -> constant.name().toLowerCase(Locale.ROOT).replace('_', '-')).iterator();
        }
    }

    static final class Formats extends Named<Format> {
        Formats() {
            super(Format.class);
        }
    }

    static final class AssessFormats extends Named<AssessFormat> {
        AssessFormats() {
            super(AssessFormat.class);
        }
    }

    static final class Statuses extends Named<RegistrationStatus> {
        Statuses() {
            super(RegistrationStatus.class);
        }
    }

    static final class Transports extends Named<ServeCommand.TransportOption> {
        Transports() {
            super(ServeCommand.TransportOption.class);
        }
    }

    static final class ConfigDialects extends Named<McpConfigCommand.ConfigDialect> {
        ConfigDialects() {
            super(McpConfigCommand.ConfigDialect.class);
        }
    }

    static final class Shells extends Named<CompletionCommand.Shell> {
        Shells() {
            super(CompletionCommand.Shell.class);
        }
    }

    /**
     * The default roster's profiles: the script is generated once, so a roster file named at TAB
     * time ({@code --roster}, {@code FLEET_ROSTER}) is not consulted.
     */
    static final class Profiles implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Roster.defaultRoster().members().stream().map(RosterMember::profile).iterator();
        }
    }
}
