package dev.fleet.domain.host;

import java.util.List;
import java.util.Objects;

/**
 * One stdio server of one client's configuration, as read (never run): who configured it, where, under
 * which name, and what the client starts. The values of its {@code env} block and headers are never
 * read into it.
 *
 * @param client the client whose configuration names it
 * @param configFile the file it was read from, as an absolute path
 * @param name the server's name in that file
 * @param project the project directory the entry belongs to (a project's {@code .mcp.json}, a
 *     per-project block of {@code ~/.claude.json}), null for a user-wide entry
 * @param command the command as written
 * @param args the arguments as written, in order
 * @param launchForms every argv the kernel may show for it, resolved by the reader as the client
 *     resolves the command (absolute, or on {@code PATH}; a script's interpreter line puts the
 *     interpreter first; {@code npx} shows itself as {@code npm exec}), each ending with {@code args}
 *     but one: npx's retitled argv may be ONE element, {@code "npm exec ARGS"} joined by spaces; never
 *     empty: the command as written with its args is the last form
 */
public record ConfiguredServer(ClientKind client, String configFile, String name, String project, String command,
        List<String> args, List<List<String>> launchForms) {

    public ConfiguredServer {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(configFile, "configFile");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(command, "command");
        args = List.copyOf(args);
        launchForms = launchForms.stream().map(List::copyOf).toList();
        if (launchForms.isEmpty()) {
            throw new IllegalArgumentException("a configured server has at least one launch form");
        }
    }
}
