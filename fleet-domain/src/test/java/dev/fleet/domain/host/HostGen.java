package dev.fleet.domain.host;

import static org.quicktheories.generators.SourceDSL.integers;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.quicktheories.core.Gen;
import org.quicktheories.core.RandomnessSource;

/**
 * Generates hosts the way they pile up: a few clients of assorted kinds (and one of no known kind),
 * each with instances of its configured entries, some started together, some generations apart, some
 * with children; servers whose client died (under init or a subreaper, some fed by a live client),
 * processes that outlived their wrapper, servers started from a terminal, MCP-looking processes of no
 * entry, the fleet's own processes and the observer, duplicated pids, stdins over pipes and over
 * socketpairs (a Node client's), and hostile argv (newlines, {@code )}, quotes, {@code $(...)})
 * everywhere. Pids are mostly unique, as a process table makes them.
 */
final class HostGen {

    static final List<String> HOSTILE = List.of("a\nb", "x) 1 2 3", "'; rm -rf ~ #", "$(reboot)", "`id`", "\u2028",
            "\u009b31m", "--token=***", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaac", "");
    private static final List<String> CLIENTS = List.of("claude", "/usr/share/code/code", "codex", "cursor",
            "/usr/bin/zed", "gemini", "goose", "my-agent");
    private static final List<ClientKind> KINDS = List.of(ClientKind.CLAUDE_CODE, ClientKind.VSCODE, ClientKind.CODEX,
            ClientKind.CURSOR, ClientKind.ZED, ClientKind.GEMINI, ClientKind.GOOSE, ClientKind.CLAUDE_CODE);

    private HostGen() {
    }

    static Gen<HostSnapshot> hosts() {
        return ((Gen<HostSnapshot>) in -> new Builder(in).build()).describedAs(HostGen::describe);
    }

    private static String describe(HostSnapshot snapshot) {
        StringBuilder text = new StringBuilder();
        snapshot.configured().forEach(server -> text.append("  entry ").append(server).append('\n'));
        snapshot.processes().forEach(process -> text.append("  process ").append(process).append('\n'));
        return text.toString();
    }

    private static final class Builder {
        private final RandomnessSource in;
        private final HostFixture host = new HostFixture().withInit();
        private long nextPid = 1_000;
        private long nextPipe = 10;
        private final List<Long> clientPids = new ArrayList<>();

        Builder(RandomnessSource in) {
            this.in = in;
        }

        int pick(int low, int high) {
            return integers().between(low, high).generate(in);
        }

        String word() {
            return pick(0, 3) == 0 ? HOSTILE.get(pick(0, HOSTILE.size() - 1)) : "w" + pick(0, 3);
        }

        HostSnapshot build() {
            List<ConfiguredServer> entries = new ArrayList<>();
            for (int i = pick(1, 5); i > 0; i--) {
                ClientKind kind = KINDS.get(pick(0, KINDS.size() - 1));
                String command = pick(0, 1) == 0 ? "npx" : "/opt/srv/" + word();
                ConfiguredServer entry = new ConfiguredServer(kind, "/home/u/" + kind.label() + ".json", "s" + pick(0, 4)
                        + word(), pick(0, 2) == 0 ? "/work/p" + pick(0, 1) : null, command, List.of("-y", word()),
                        List.of(List.of(command, "-y", entries.size() + word())));
                entries.add(entry);
                host.configure(entry);
            }
            for (int c = pick(0, 3); c > 0; c--) {
                client(entries);
            }
            for (int i = pick(0, 3); i > 0; i--) {
                ConfiguredServer entry = entries.get(pick(0, entries.size() - 1));
                long parent = List.of(1L, 500L, clientPids.isEmpty() ? 1L : clientPids.get(0)).get(pick(0, 2));
                switch (pick(0, 3)) {
                    case 0 -> host.byHand(pid(), parent, pick(100, 20_000), form(entry));
                    case 1 -> orphan(entry, parent);
                    case 2 -> host.process(pid(), 500, pick(100, 20_000), pick(0, 1) == 0 ? pipe() : 10, "node", word());
                    default -> host.process(pid(), parent, pick(100, 20_000), pipe(), "python", "-m", "mcp_" + word());
                }
            }
            if (pick(0, 3) == 0) {
                long fleet = pid();
                if (pick(0, 1) == 0) {
                    host.fleetPids.add(fleet); // the fleet's own, as its observer's patterns found it
                }
                host.process(fleet, clientPids.isEmpty() ? 1 : clientPids.get(0), 300, 10, "java", "-jar", "fleet.jar",
                        "serve");
            }
            if (pick(0, 3) == 0) {
                host.process(HostFixture.OWN_PID, 1, 9_000, 0, "fleet", "host");
            }
            if (pick(0, 3) == 0) {
                // Another user's process, its open files unread: no unfed stdin then proves an orphan.
                long other = pid();
                host.add(new HostProcess(other, 1, other, other, 0, pick(100, 20_000), HostFixture.at(150),
                        List.of("/usr/sbin/" + word()), false, null, false, Set.of(), 0, false));
            }
            if (pick(0, 5) == 0 && host.processes.size() > 3) {
                HostProcess twin = host.processes.get(pick(2, host.processes.size() - 1));
                host.process(twin.pid(), twin.parentPid(), twin.startTicks() + 1, 0, "twin");
            }
            return host.snapshot();
        }

        long pid() {
            return nextPid += pick(1, 7);
        }

        long pipe() {
            return nextPipe++;
        }

        String[] form(ConfiguredServer entry) {
            List<String> form = entry.launchForms().get(0);
            return form.toArray(String[]::new);
        }

        /**
         * A client and its servers, fed over pipes or, as a Node client does, over socketpairs (the client holding
         * each peer, numbered next to its server's end), and now and then a server of its that was reparented to a
         * reaper while the client still feeds it.
         */
        void client(List<ConfiguredServer> entries) {
            long client = pid();
            clientPids.add(client);
            boolean node = pick(0, 1) == 0;
            List<Long> channels = new ArrayList<>();
            long clientTicks = pick(100, 1_000);
            for (int i = pick(0, 5); i > 0; i--) {
                ConfiguredServer entry = entries.get(pick(0, entries.size() - 1));
                long channel = node ? socketPair() : pipe();
                channels.add(channel);
                long ticks = clientTicks + pick(0, 1) * pick(0, 150) + pick(0, 3) * 1_000L;
                long pid = pid();
                fed(node, pid, client, ticks, channel, form(entry));
                if (pick(0, 2) == 0) {
                    fed(node, pid(), pid, ticks + 3, channel, "node", word());
                }
            }
            if (pick(0, 3) == 0) {
                long channel = node ? socketPair() : pipe();
                channels.add(channel);
                fed(node, pid(), 500, clientTicks + 500, channel, "python", word());
            }
            host.client(client, 1, clientTicks, Set.copyOf(channels), CLIENTS.get(pick(0, CLIENTS.size() - 1)), word());
        }

        /** A process reading {@code channel}: one end of a socketpair when {@code socket}, else a pipe. */
        void fed(boolean socket, long pid, long parent, long ticks, long channel, String... argv) {
            if (socket) {
                host.overSocket(pid, parent, ticks, channel, argv);
            } else {
                host.process(pid, parent, ticks, channel, argv);
            }
        }

        /** A socketpair's two inodes, numbered one after the other: the server's end, which this returns, then the peer. */
        long socketPair() {
            long end = pipe();
            pipe();
            return end;
        }

        /** A server under {@code parent} whose channel, a pipe or a socket, may be nobody's now, or a client's. */
        void orphan(ConfiguredServer entry, long parent) {
            long pid = pid();
            boolean socket = pick(0, 2) == 0;
            long channel = pick(0, 1) == 0 ? (socket ? socketPair() : pipe()) : 10;
            fed(socket, pid, parent, pick(100, 20_000), channel, form(entry));
            if (pick(0, 1) == 0) {
                fed(socket, pid(), pid, pick(100, 20_000), channel, "node", word());
            }
        }
    }
}
