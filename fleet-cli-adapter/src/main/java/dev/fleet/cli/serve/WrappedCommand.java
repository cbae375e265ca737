package dev.fleet.cli.serve;

import dev.fleet.cli.exit.ConfigurationException;
import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.Transport;
import dev.fleet.domain.lifecycle.ServedServer;
import dev.fleet.domain.lifecycle.ServerIdentity;
import dev.fleet.domain.port.out.ProcessObserver;
import dev.fleet.mcp.relay.ServedChild;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * What comes after {@code --} on {@code fleet serve}: the member's own MCP server (the contract,
 * §12), checked before anything is registered and started as this process's child.
 */
public record WrappedCommand(List<String> argv) {

    public WrappedCommand {
        argv = List.copyOf(argv);
    }

    /**
     * The command given, or null for a plain member (no {@code --}). Refused as a usage error (exit 2):
     * a word not after {@code --} (an option of the server's would be taken for fleet's), a {@code --}
     * with nothing after it (an unset {@code $SERVER} would otherwise register a member wrapping
     * nothing, which the gate counts as running), and a command with {@code --transport http} (a
     * wrapped server is served over stdio only).
     */
    public static WrappedCommand of(List<String> positional, Transport transport, CommandLine command) {
        List<String> words = positional == null ? List.of() : positional;
        List<String> args = command.getParseResult().originalArgs();
        int separator = args.indexOf("--");
        List<String> afterSeparator = separator < 0 ? List.of() : args.subList(separator + 1, args.size());
        if (!afterSeparator.equals(words)) {
            String unexpected = words.isEmpty() ? afterSeparator.get(0) : words.get(0);
            throw new ParameterException(command, "unexpected argument '" + unexpected + "': put the server "
                    + "to wrap after --, as in: fleet serve --profile NAME -- COMMAND [ARG...]");
        }
        if (separator < 0) {
            return null;
        }
        if (words.isEmpty()) {
            throw new ParameterException(command, "nothing to start after --: name the server to wrap, as in: "
                    + "fleet serve --profile NAME -- COMMAND [ARG...]; leave out -- for a plain member");
        }
        if (transport != Transport.STDIO) {
            throw new ParameterException(command, "a wrapped server (-- COMMAND) is relayed over stdio only; "
                    + "drop --transport http");
        }
        // What starting the child needs first (JNA, some 100 ms) loads meanwhile, beside the registry and roster.
        ServedChild.prepare();
        return new WrappedCommand(positional);
    }

    /**
     * {@code identity} wrapping {@code child}, as its row records it: the command masked, and the
     * child's start as the process table reports it, as every start in a row is read (never a clock).
     */
    public static ServerIdentity recorded(ServerIdentity identity, ServedChild child, ProcessObserver observer) {
        Instant started = observer.observe(List.of(), Set.of(child.pid())).processes().stream()
                .filter(process -> process.pid() == child.pid())
                .map(ObservedProcess::startedAt).filter(Objects::nonNull).findFirst().orElse(null);
        return identity.withServer(ServedServer.of(child.argv(), child.pid(), started));
    }

    /**
     * Starts the server as {@code member}'s: one line and exit 2, with nothing registered, when it
     * cannot be started.
     *
     * <p>Called on the main thread, which then serves ({@code RelayServer.serve} never returns) until
     * the process exits: the child's parent-death signal (SIGKILL once this member is gone, even killed
     * with SIGKILL) fires when the <em>thread</em> that started it ends, so no shorter-lived thread may
     * start it.
     */
    public ServedChild start(RosterMember member) {
        try {
            return ServedChild.start(argv, ChildEnvironment.changesFor(member, System.getProperties()));
        } catch (ServedChild.CannotStart e) {
            throw new ConfigurationException(e.getMessage());
        }
    }
}
