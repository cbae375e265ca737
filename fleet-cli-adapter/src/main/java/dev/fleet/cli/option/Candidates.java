package dev.fleet.cli.option;

import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import java.util.Arrays;
import java.util.Iterator;

/**
 * What shell completion offers for an option, spelled as the command accepts it typed: picocli
 * would offer an enum's constants as declared ({@code JSON}, {@code MCP_JSON}), which a case
 * sensitive eye reads as the only spelling and a converter may reject.
 */
public final class Candidates {

    private Candidates() {
    }

    /**
     * An enum's constants as they are written ({@link Spellings}: lower case, {@code _} written {@code -}). A verb's own enum (serve's
     * transports, wait's conditions) has its candidates beside it in the verb, as a subclass of this.
     */
    public abstract static class Named<E extends Enum<E>> implements Iterable<String> {
        private final Class<E> type;

        protected Named(Class<E> type) {
            this.type = type;
        }

        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(type.getEnumConstants()).map(Spellings::of).iterator();
        }
    }

    static final class Formats extends Named<Format> {
        Formats() {
            super(Format.class);
        }
    }

    public static final class AssessFormats extends Named<AssessFormat> {
        AssessFormats() {
            super(AssessFormat.class);
        }
    }

    public static final class HostFormats extends Named<HostFormat> {
        HostFormats() {
            super(HostFormat.class);
        }
    }

    public static final class Statuses extends Named<RegistrationStatus> {
        Statuses() {
            super(RegistrationStatus.class);
        }
    }

    /**
     * The default roster's profiles: the script is generated once, so a roster file named at TAB
     * time ({@code --roster}, {@code FLEET_ROSTER}) is not consulted.
     */
    public static final class Profiles implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Roster.defaultRoster().members().stream().map(RosterMember::profile).iterator();
        }
    }
}
