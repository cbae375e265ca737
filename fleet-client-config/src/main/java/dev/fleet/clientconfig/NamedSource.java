package dev.fleet.clientconfig;

import dev.fleet.domain.host.ClientKind;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A {@code --config FILE}'s client told by its name, where the name is one a client gives its file
 * ({@code .claude.json}, {@code .mcp.json}, {@code claude_desktop_config.json}, {@code .cursor/mcp.json},
 * {@code .vscode/mcp.json} or {@code Code/User/mcp.json}, {@code .codex/config.toml},
 * {@code zed/settings.json}, {@code .gemini/settings.json}, {@code goose/config.yaml}). A project's file
 * belongs to the directory that holds it (its {@code .cursor} or {@code .vscode} directory's parent).
 */
final class NamedSource {

    private NamedSource() {
    }

    static Optional<ConfigSource> of(Path file, Optional<Path> home) {
        Path absolute = file.toAbsolutePath().normalize();
        String name = nameOf(absolute);
        Path parent = absolute.getParent();
        String folder = parent == null ? "" : nameOf(parent);
        Path grandparent = parent == null ? null : parent.getParent();
        String projectOfFolder = grandparent == null || home.map(grandparent::equals).orElse(false)
                ? null : grandparent.toString();
        switch (name) {
            case ".claude.json":
                return source(ClientKind.CLAUDE_CODE, absolute, Dialect.CLAUDE_USER, null);
            case ".mcp.json":
                return source(ClientKind.CLAUDE_CODE, absolute, Dialect.MCP_SERVERS,
                        parent == null ? null : parent.toString());
            case "claude_desktop_config.json":
                return source(ClientKind.CLAUDE_DESKTOP, absolute, Dialect.MCP_SERVERS, null);
            case "mcp.json":
                if (folder.equals(".cursor")) {
                    return source(ClientKind.CURSOR, absolute, Dialect.MCP_SERVERS, projectOfFolder);
                }
                if (folder.equals(".vscode")) {
                    return source(ClientKind.VSCODE, absolute, Dialect.VSCODE, projectOfFolder);
                }
                return folder.equals("User") ? source(ClientKind.VSCODE, absolute, Dialect.VSCODE, null)
                        : Optional.empty();
            case "config.toml":
                return folder.equals(".codex") ? source(ClientKind.CODEX, absolute, Dialect.CODEX, null)
                        : Optional.empty();
            case "settings.json":
                if (folder.equals("zed")) {
                    return source(ClientKind.ZED, absolute, Dialect.ZED, null);
                }
                return folder.equals(".gemini")
                        ? source(ClientKind.GEMINI, absolute, Dialect.MCP_SERVERS, projectOfFolder) : Optional.empty();
            case "config.yaml":
                return folder.equals("goose") ? source(ClientKind.GOOSE, absolute, Dialect.GOOSE, null)
                        : Optional.empty();
            default:
                return Optional.empty();
        }
    }

    private static Optional<ConfigSource> source(ClientKind kind, Path file, Dialect dialect, String project) {
        return Optional.of(new ConfigSource(kind, file, dialect, project));
    }

    private static String nameOf(Path path) {
        Path name = path.getFileName();
        return name == null ? "" : name.toString();
    }
}
