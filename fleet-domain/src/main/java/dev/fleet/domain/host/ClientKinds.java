package dev.fleet.domain.host;

import java.util.List;
import java.util.Map;

/**
 * Which client a process is, from its argv (the contract, §14, "Client kind"): the last path segment of
 * its executable, or of the script an interpreter or a shell runs, names it. The names are compared exactly, case
 * included: {@code claude} is Claude Code, {@code Claude} is Claude Desktop's Electron executable,
 * and {@code code} (VS Code) is not {@code codex}. A process whose title was rewritten into one
 * argument ({@code claude} sets its title) is read by its first word. Anything else is of no known
 * kind: it is shown by its command.
 */
final class ClientKinds {

    private static final Map<String, ClientKind> BY_NAME = Map.ofEntries(
            Map.entry("claude", ClientKind.CLAUDE_CODE),
            Map.entry("claude-desktop", ClientKind.CLAUDE_DESKTOP),
            Map.entry("Claude", ClientKind.CLAUDE_DESKTOP),
            Map.entry("cursor", ClientKind.CURSOR),
            Map.entry("code", ClientKind.VSCODE),
            Map.entry("codex", ClientKind.CODEX),
            Map.entry("zed", ClientKind.ZED),
            // Zed's Linux package runs its editor as zed-editor; the zed command only hands over to it.
            Map.entry("zed-editor", ClientKind.ZED),
            Map.entry("gemini", ClientKind.GEMINI),
            Map.entry("goose", ClientKind.GOOSE));

    /** Programs that run the script named by their first non-option argument. */
    private static final List<String> INTERPRETERS = List.of("node", "nodejs", "bun", "deno", "python", "python3",
            "electron");
    /**
     * Shells, which run a script the same way ({@code #!/bin/bash} makes {@code /bin/bash /path/claude}),
     * unless an option holding {@code c} gives them a command as text ({@code bash -c claude}, {@code sh -lc}):
     * then no script names the client.
     */
    private static final List<String> SHELLS = List.of("sh", "bash", "dash", "zsh", "ksh", "mksh");

    private ClientKinds() {
    }

    /** The kind {@code argv} names, or null. */
    static ClientKind of(List<String> argv) {
        if (argv.isEmpty()) {
            return null;
        }
        String program = argv.get(0);
        ClientKind kind = BY_NAME.get(LaunchForm.baseName(program));
        if (kind != null) {
            return kind;
        }
        int space = program.indexOf(' ');
        if (space > 0) {
            kind = BY_NAME.get(LaunchForm.baseName(program.substring(0, space)));
            if (kind != null) {
                return kind;
            }
        }
        String name = LaunchForm.baseName(program);
        return isInterpreter(name) || SHELLS.contains(name) ? script(argv, SHELLS.contains(name)) : null;
    }

    private static boolean isInterpreter(String name) {
        return INTERPRETERS.contains(name) || name.startsWith("python3.");
    }

    private static ClientKind script(List<String> argv, boolean shell) {
        for (String argument : argv.subList(1, argv.size())) {
            if (shell && givesACommand(argument)) {
                return null; // a command given as text, not a script
            }
            if (!argument.startsWith("-")) {
                return BY_NAME.get(LaunchForm.baseName(argument));
            }
        }
        return null;
    }

    /**
     * Whether a shell's {@code argument} is options of letters that hold {@code c} ({@code -c}, {@code -lc}): read
     * in one pass, since any user writes them (a backtracking {@code -[A-Za-z]*c[A-Za-z]*} took seconds on one
     * option of 128 KiB).
     */
    private static boolean givesACommand(String argument) {
        if (argument.length() < 2 || argument.charAt(0) != '-') {
            return false;
        }
        boolean command = false;
        for (int i = 1; i < argument.length(); i++) {
            char c = argument.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z')) {
                return false;
            }
            command |= c == 'c';
        }
        return command;
    }
}
