package dev.fleet.clientconfig;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * {@code uvx} (astral-sh/uv) runs nothing itself: it execs the {@code uv} beside its own file (symlinks resolved,
 * a suffix of its name kept: {@code uvx-0.9} runs {@code uv-0.9}) as {@code uv tool uvx ARGS}, and uv starts the
 * tool as its child. So a configured {@code uvx mcp-server-git} shows as {@code /real/dir/uv tool uvx
 * mcp-server-git}, which no other form names. Found read-only: the file's real path, never run.
 */
final class UvxExec {

    private UvxExec() {
    }

    /** The head of the argv {@code executable} execs when it is uvx ({@code [uv, tool, uvx]}); empty otherwise. */
    static Optional<List<String>> head(Path executable) {
        Path real;
        try {
            real = executable.toRealPath();
        } catch (IOException | SecurityException e) {
            return Optional.empty();
        }
        Path name = real.getFileName();
        if (name == null || !name.toString().startsWith("uvx")) {
            return Optional.empty();
        }
        return Optional.of(List.of(real.resolveSibling("uv" + name.toString().substring(3)).toString(), "tool", "uvx"));
    }
}
