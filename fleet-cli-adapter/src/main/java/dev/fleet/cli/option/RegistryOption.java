package dev.fleet.cli.option;

import dev.fleet.cli.exit.ConfigurationException;
import dev.fleet.domain.Printable;
import dev.fleet.domain.port.out.RegistryEvidence;
import dev.fleet.domain.port.out.RegistryListing;
import dev.fleet.registry.postgresql.PostgresLocation;
import dev.fleet.registry.postgresql.PostgresRegistryReader;
import dev.fleet.registry.sqlite.RegistryLocation;
import dev.fleet.registry.sqlite.SqliteRegistryReader;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code --registry PATH|URL}, else {@code FLEET_REGISTRY}, else the contract's XDG state path. A
 * {@code postgresql://USER@HOST:PORT/DB} URL ({@code postgres://} too) names a registry shared by many
 * hosts, and one that is not of that strict form is a usage error; anything else is a SQLite file. The
 * composition root asks which ({@link #postgres()}), and the domain never knows.
 */
public final class RegistryOption {

    // A Path, so that shells complete it as a file (picocli's completion goes by the field's type); a
    // URL is kept as a Path too, which folds its "//" (see text()).
    @Option(names = "--registry", paramLabel = "PATH|URL", converter = RegistryValue.class,
            // Lines broken by hand, each within the narrowest option column (fleet serve's, at 80 columns):
            // picocli would cut the URL after its colon and the file name after its dot.
            description = {"Registry file, or a registry shared by many",
                "hosts: postgresql://USER@HOST:PORT/DB",
                "(postgres:// too; the password from PGPASSWORD",
                "or ~/.pgpass). Default: $FLEET_REGISTRY, else",
                "gitea-tools/control_plane.sqlite3 in",
                "$XDG_STATE_HOME (~/.local/state when unset or",
                "relative)."})
    Path value;

    /**
     * A URL of another kind ({@code jdbc:postgresql://}, {@code sqlite:///}, {@code file:///}): taken as a file's
     * path, it named folders {@code jdbc:postgresql:} and the like, and {@code assess} answered "registry missing".
     */
    private static final Pattern OTHER_URL = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:([A-Za-z][A-Za-z0-9+.-]*:)*//");

    /** Whether the relative XDG_STATE_HOME warning was given: once per process, however often the path is asked. */
    private static final AtomicBoolean WARNED = new AtomicBoolean();
    /** The same for a relative HOME. */
    private static final AtomicBoolean WARNED_HOME = new AtomicBoolean();

    /**
     * The shared PostgreSQL registry named, if the option or {@code FLEET_REGISTRY} names one.
     *
     * @throws ConfigurationException when it is a malformed URL (exit 2, one line)
     */
    public Optional<PostgresLocation> postgres() {
        String named = value != null ? text() : System.getenv(RegistryLocation.REGISTRY_ENV);
        if (!PostgresLocation.isUrl(named)) {
            String other = otherUrl(named);
            if (other != null) {
                throw new ConfigurationException(other + origin());
            }
            return Optional.empty();
        }
        try {
            return Optional.of(PostgresLocation.parse(named));
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(e.getMessage() + origin());
        }
    }

    /** The registry named, as an assessment's evidence: PostgreSQL's or the SQLite file's. */
    public RegistryEvidence evidence() {
        return postgres().<RegistryEvidence>map(PostgresRegistryReader::new)
                .orElseGet(() -> new SqliteRegistryReader(path()));
    }

    /** The registry named, as an operator lists it. */
    public RegistryListing listing() {
        return postgres().<RegistryListing>map(PostgresRegistryReader::new)
                .orElseGet(() -> new SqliteRegistryReader(path()));
    }

    /** Where the registry lives, as an operator is told: the URL (it holds no secret), else the file's path. */
    public String location() {
        return postgres().map(PostgresLocation::display).orElseGet(() -> path().toString());
    }

    /** How the text verdict names the registry it read. */
    public String shown() {
        return postgres().map(location -> "registry " + location.display())
                .orElseGet(() -> "registry file " + Printable.of(path().toString()));
    }

    /**
     * The SQLite file: for what only a file can be (a server's writer, checked before it serves).
     *
     * @throws ConfigurationException when the environment locates no registry, or it names a PostgreSQL one
     */
    public Path path() {
        if (postgres().isPresent()) {
            throw new ConfigurationException("this verb takes a registry file, not a PostgreSQL URL" + origin());
        }
        if (value != null) {
            return KernelPath.of(value);
        }
        if (RegistryLocation.ignoresStateHome(System.getenv()) && !WARNED.getAndSet(true)) {
            // stderr, never stdout: over stdio, stdout is the protocol's.
            System.err.println("fleet: warning: XDG_STATE_HOME is relative (" + Printable.of(System.getenv(
                    RegistryLocation.STATE_HOME_ENV)) + "); ignored as the XDG spec says, using ~/.local/state");
        }
        if (RegistryLocation.ignoresHome(System.getenv()) && !WARNED_HOME.getAndSet(true)) {
            System.err.println("fleet: warning: HOME is relative (" + Printable.of(System.getenv(
                    RegistryLocation.HOME_ENV)) + "); ignored for the registry, using the account's home "
                    + Printable.of(System.getProperty("user.home")));
        }
        try {
            return KernelPath.of(RegistryLocation.defaultPath());
        } catch (IllegalStateException e) {
            throw new ConfigurationException(e.getMessage());
        }
    }

    /** Where the path came from, for an error about it: the variable, when it named the file. */
    public String origin() {
        return value == null && RegistryLocation.namedByEnvironment()
                ? " (from $" + RegistryLocation.REGISTRY_ENV + ")" : "";
    }

    /**
     * Whether this shell chose the registry ({@code --registry}, {@code FLEET_REGISTRY} or {@code XDG_STATE_HOME}),
     * so that the servers a client starts, in an environment of its own, are told it: a client started from a
     * desktop rather than this shell has no {@code XDG_STATE_HOME} of the shell's, and its members registered where
     * {@code fleet assess} here never looked.
     */
    public boolean chosenHere() {
        return named() || RegistryLocation.locatedByStateHome(System.getenv());
    }

    /** Whether the operator named the file ({@code --registry} or {@code FLEET_REGISTRY}) rather than taking the default. */
    public boolean named() {
        return value != null || RegistryLocation.namedByEnvironment();
    }

    /**
     * Whether a writer may make the registry file's missing folder: for the default location, and for a path named
     * in its shape in an existing state folder ({@link RegistryLocation#isInStateHome}). That is how
     * {@code mcp-config} pins the location this shell's {@code XDG_STATE_HOME} gave: refused, every member it
     * configured exited 2 on a first install, where no {@code gitea-tools} folder was made yet. Any other named path
     * must be in an existing folder, so that a typo leaves no folders behind.
     */
    public boolean mayMakeFolder() {
        return !named() || RegistryLocation.isInStateHome(path());
    }

    /** The option as given: a path, or a URL whose "//" the Path folded to "/" put back. */
    private String text() {
        String text = value.toString();
        String folded = PostgresLocation.SCHEME.substring(0, PostgresLocation.SCHEME.length() - 1);
        return text.startsWith(folded) && !text.startsWith(PostgresLocation.SCHEME)
                ? PostgresLocation.SCHEME + text.substring(folded.length()) : text;
    }

    /** Why {@code value} is refused when it is a URL of a kind fleet does not read, else null; its scheme only is echoed. */
    private static String otherUrl(String value) {
        Matcher url = value == null ? null : OTHER_URL.matcher(value.strip());
        return url == null || !url.find() ? null : "a URL of scheme " + Printable.of(url.group().substring(0,
                url.group().length() - 2)) + " is no registry fleet reads: a shared one is " + PostgresLocation.FORM + " (postgres:// "
                + "too), anything else a SQLite file's path";
    }

    /**
     * The option's value: a URL checked part by part as given (a Path would fold its slashes first) and kept
     * in its one canonical spelling, else a usable path ({@link PathConverter}'s checks).
     */
    static final class RegistryValue implements ITypeConverter<Path> {
        @Override
        public Path convert(String value) {
            if (!PostgresLocation.isUrl(value)) {
                String other = otherUrl(value);
                if (other != null) {
                    throw new TypeConversionException(other);
                }
                return new PathConverter().convert(value);
            }
            try {
                return Path.of(PostgresLocation.parse(value).display());
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
