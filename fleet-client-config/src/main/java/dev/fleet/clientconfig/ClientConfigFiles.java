package dev.fleet.clientconfig;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fleet.domain.host.ClientKind;
import dev.fleet.domain.host.ConfiguredServer;
import dev.fleet.domain.port.out.ClientConfigurations;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The MCP clients' configuration files of one user (the contract, §14, "Inputs"), read and never run:
 * no command is executed, and of a server's block only its command and arguments are taken ({@code env},
 * {@code envs} and {@code headers} are never read into anything). Where the files are and what each
 * layout holds: {@link KnownSources}, {@link Dialect}, {@link StdioEntries}; the argvs each command may
 * show: {@link LaunchForms}.
 *
 * <p>A file that is absent is skipped; any other failure to read it (not a regular file, larger than the
 * bound, unreadable, not valid in its format) is one warning line, {@code FILE: reason}, and the other
 * files are still read. Entries a file holds beyond the bounds ({@link ReadBounds}), or that its client
 * could not start either, are one warning line for that file.
 */
public final class ClientConfigFiles implements ClientConfigurations {

    private final KnownSources known;
    private final LaunchForms launchForms;

    /**
     * @param environment the environment whose {@code HOME}, {@code XDG_CONFIG_HOME}, {@code CODEX_HOME},
     *     {@code CLAUDE_CONFIG_DIR} and {@code PATH} say where the files are and how commands resolve
     *     (the invoking user's: {@code System.getenv()})
     */
    public ClientConfigFiles(Map<String, String> environment) {
        this.known = new KnownSources(environment);
        this.launchForms = new LaunchForms(new ExecutableSearch(environment.get("PATH")));
    }

    @Override
    public Read read(List<Path> extraFiles, Path project) {
        List<ConfiguredServer> servers = new ArrayList<>();
        List<String> warnings = new ArrayList<>(known.ignored());
        Set<Path> seen = new HashSet<>();
        for (ConfigSource source : known.all(project)) {
            if (seen.add(source.file())) {
                readKnown(source, servers, warnings);
            }
        }
        for (Path file : extraFiles) {
            Path absolute = file.toAbsolutePath().normalize();
            if (seen.add(absolute)) {
                readNamed(absolute, servers, warnings);
            }
        }
        return new Read(servers, warnings);
    }

    private void readKnown(ConfigSource source, List<ConfiguredServer> servers, List<String> warnings) {
        readSource(source, false, servers, warnings);
    }

    private void readSource(ConfigSource source, boolean named, List<ConfiguredServer> servers,
            List<String> warnings) {
        try {
            Optional<byte[]> content = BoundedFile.read(source.file());
            if (content.isEmpty() && named) {
                warnings.add(warning(source.file(), "no such file"));
            }
            if (content.isPresent()) {
                Optional<JsonNode> root = source.dialect().format().parse(content.get());
                if (root.isPresent()) {
                    take(source, root.get(), servers, warnings);
                }
            }
        } catch (UnreadableConfig e) {
            warnings.add(warning(source.file(), e.getMessage()));
        }
    }

    /**
     * A {@code --config} file, its client told by its name or else by its content; named by the user,
     * so its absence is a warning too.
     */
    private void readNamed(Path file, List<ConfiguredServer> servers, List<String> warnings) {
        Optional<ConfigSource> named = NamedSource.of(file, known.home());
        if (named.isPresent()) {
            readSource(named.get(), true, servers, warnings);
            return;
        }
        try {
            Optional<byte[]> content = BoundedFile.read(file);
            if (content.isEmpty()) {
                warnings.add(warning(file, "no such file"));
                return;
            }
            ContentSource.Parsed parsed = ContentSource.of(file, content.get());
            take(parsed.source(), parsed.root(), servers, warnings);
        } catch (UnreadableConfig e) {
            warnings.add(warning(file, e.getMessage()));
        }
    }

    private void take(ConfigSource source, JsonNode root, List<ConfiguredServer> servers, List<String> warnings) {
        List<RawEntry> entries = source.dialect().entries(root, source.project(), ReadBounds.ENTRIES_PER_FILE);
        boolean tooMany = entries.size() > ReadBounds.ENTRIES_PER_FILE;
        int skipped = 0;
        for (RawEntry entry : entries.subList(0, Math.min(entries.size(), ReadBounds.ENTRIES_PER_FILE))) {
            EntryReading reading = StdioEntries.read(source.dialect(), entry);
            if (reading instanceof EntryReading.Malformed) {
                skipped++;
            } else if (reading instanceof EntryReading.Stdio) {
                EntryReading.Stdio stdio = workspace((EntryReading.Stdio) reading, source, entry.project());
                servers.add(new ConfiguredServer(source.kind(), source.file().toString(), entry.name(),
                        entry.project(), stdio.command(), stdio.args(),
                        launchForms.of(stdio.command(), stdio.args(), entry.project())));
            }
        }
        if (tooMany || skipped > 0) {
            warnings.add(warning(source.file(), (tooMany ? "only its first " + ReadBounds.ENTRIES_PER_FILE
                    + " servers read" : "") + (tooMany && skipped > 0 ? ", " : "")
                    + (skipped > 0 ? skipped + (skipped == 1 ? " server" : " servers")
                            + " skipped (no command, or over the bounds)" : "")));
        }
    }

    /**
     * VS Code and Cursor put the project's directory for {@code ${workspaceFolder}} before they start a
     * project's server, so its argv shows the directory. No other variable is expanded: {@code ${env:X}}
     * and {@code ${X}} name the user's environment, where secrets live.
     */
    private static EntryReading.Stdio workspace(EntryReading.Stdio stdio, ConfigSource source, String project) {
        if (project == null || !(source.dialect() == Dialect.VSCODE || source.kind()
                == ClientKind.CURSOR)) {
            return stdio;
        }
        return new EntryReading.Stdio(stdio.command().replace("${workspaceFolder}", project),
                stdio.args().stream().map(arg -> arg.replace("${workspaceFolder}", project)).toList());
    }

    private static String warning(Path file, String reason) {
        return file + ": " + reason;
    }
}
