package dev.fleet.domain.host;

import java.util.Locale;
import java.util.Optional;

/**
 * The MCP clients whose configurations {@code fleet host} reads (the contract, §14), each with the
 * name it has in every output. A client process is told by its executable or script path.
 */
public enum ClientKind {
    CLAUDE_CODE("claude-code"),
    CLAUDE_DESKTOP("claude-desktop"),
    CURSOR("cursor"),
    VSCODE("vscode"),
    CODEX("codex"),
    ZED("zed"),
    GEMINI("gemini"),
    GOOSE("goose");

    private final String label;

    ClientKind(String label) {
        this.label = label;
    }

    /** The name in text, JSON and metrics. */
    public String label() {
        return label;
    }

    /** The kind of this label, if it is one. */
    public static Optional<ClientKind> ofLabel(String label) {
        for (ClientKind kind : values()) {
            if (kind.label.equals(label.toLowerCase(Locale.ROOT))) {
                return Optional.of(kind);
            }
        }
        return Optional.empty();
    }
}
