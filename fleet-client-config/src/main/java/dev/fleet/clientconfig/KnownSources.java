package dev.fleet.clientconfig;

import dev.fleet.domain.host.ClientKind;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where each client keeps its configuration on Linux (the contract, §14), from the environment the
 * reader was given: {@code $HOME}, {@code $XDG_CONFIG_HOME} (else {@code $HOME/.config}), and the two
 * clients' own overrides of their home, {@code $CODEX_HOME} (else {@code ~/.codex}) and
 * {@code $CLAUDE_CONFIG_DIR} (else {@code ~}, for {@code .claude.json}). A relative value is ignored (it would
 * name files relative to wherever fleet runs), with a warning; with no {@code $HOME} only the project's files are
 * read, and a warning says so.
 */
final class KnownSources {

    private final Path home;
    private final Path configHome;
    private final Path codexHome;
    private final Path claudeHome;

    /** The variables set to a path that is not absolute, in order: each ignored, and named in a warning. */
    private final List<String> ignored = new ArrayList<>();

    KnownSources(Map<String, String> environment) {
        for (String variable : List.of("HOME", "XDG_CONFIG_HOME", "CODEX_HOME", "CLAUDE_CONFIG_DIR")) {
            String value = environment.get(variable);
            if (value != null && !value.isEmpty() && absolute(value).isEmpty()) {
                ignored.add(variable + " is not an absolute path ('" + value + "'): ignored, as a path relative to "
                        + "wherever fleet runs names no client's files, so the files under it are not read");
            }
        }
        if (environment.get("HOME") == null || environment.get("HOME").isEmpty()) {
            ignored.add("HOME is not set: no user-wide configuration is read, only the project's");
        }
        this.home = absolute(environment.get("HOME")).orElse(null);
        Path under = home == null ? null : home.resolve(".config");
        this.configHome = absolute(environment.get("XDG_CONFIG_HOME")).orElse(under);
        this.codexHome = absolute(environment.get("CODEX_HOME")).orElse(home == null ? null : home.resolve(".codex"));
        this.claudeHome = absolute(environment.get("CLAUDE_CONFIG_DIR")).orElse(home);
    }

    /** One line for each variable that names a relative path, and so is ignored. */
    List<String> ignored() {
        return List.copyOf(ignored);
    }

    /** The user's home, if the environment names one. */
    Optional<Path> home() {
        return Optional.ofNullable(home);
    }

    /** Every known file, user-wide and {@code project}'s (when not null), in a fixed order. */
    List<ConfigSource> all(Path project) {
        String dir = project == null ? null : project.toAbsolutePath().normalize().toString();
        List<ConfigSource> sources = new ArrayList<>();
        user(sources, ClientKind.CLAUDE_CODE, claudeHome, ".claude.json", Dialect.CLAUDE_USER);
        inProject(sources, ClientKind.CLAUDE_CODE, dir, ".mcp.json", Dialect.MCP_SERVERS);
        user(sources, ClientKind.CLAUDE_DESKTOP, configHome, "Claude/claude_desktop_config.json", Dialect.MCP_SERVERS);
        user(sources, ClientKind.CURSOR, home, ".cursor/mcp.json", Dialect.MCP_SERVERS);
        inProject(sources, ClientKind.CURSOR, dir, ".cursor/mcp.json", Dialect.MCP_SERVERS);
        user(sources, ClientKind.VSCODE, configHome, "Code/User/mcp.json", Dialect.VSCODE);
        inProject(sources, ClientKind.VSCODE, dir, ".vscode/mcp.json", Dialect.VSCODE);
        user(sources, ClientKind.CODEX, codexHome, "config.toml", Dialect.CODEX);
        user(sources, ClientKind.ZED, configHome, "zed/settings.json", Dialect.ZED);
        user(sources, ClientKind.GEMINI, home, ".gemini/settings.json", Dialect.MCP_SERVERS);
        user(sources, ClientKind.GOOSE, configHome, "goose/config.yaml", Dialect.GOOSE);
        return sources;
    }

    private static void user(List<ConfigSource> into, ClientKind kind, Path base, String file, Dialect dialect) {
        if (base != null) {
            into.add(new ConfigSource(kind, base.resolve(file), dialect, null));
        }
    }

    private static void inProject(List<ConfigSource> into, ClientKind kind, String project, String file,
            Dialect dialect) {
        if (project != null) {
            into.add(new ConfigSource(kind, Path.of(project, file), dialect, project));
        }
    }

    private static Optional<Path> absolute(String value) {
        if (value == null || value.isEmpty()) {
            return Optional.empty();
        }
        try {
            Path path = Path.of(value);
            return path.isAbsolute() ? Optional.of(path.normalize()) : Optional.empty();
        } catch (InvalidPathException e) {
            return Optional.empty();
        }
    }
}
