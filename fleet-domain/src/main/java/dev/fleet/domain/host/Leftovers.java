package dev.fleet.domain.host;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code leftover} rule (the contract, §14, "Leftover"): a process of the invoking user alive after the server
 * process that started it is gone. It reads its stdin from a pipe whose writing end a live client holds (a pipe:
 * over a socket, who holds its peer is only guessed, and a guess never makes a stray), as an end it made for a
 * server, not as its own stdout or stderr ({@link HostProcess#pipesOutput}: a {@code tee} of its output is none), it
 * matches no entry, and the wrapper that started it is gone: it is in no live server tree, and that
 * client is not among its ancestors (the wrapper's exit handed it to init or a subreaper, out of the
 * client's tree; a parent missing from a table that may hide processes, {@link Unseen}, is not known gone). The
 * last condition is the contract's "whose parent is neither that client nor in a live server tree", read
 * strictly: a process below the client, such as a command a client's shell tool runs, is the client's own
 * business, never a stray. A live client is a process of a known client
 * kind, or the client of a server found here. The topmost such process is reported with its tree;
 * its entry is the one entry configured for that client's kind, user-wide or of that client's project
 * (another project's block in the same file is another client's), with no current instance under it
 * where there is exactly one, else none.
 */
final class Leftovers {

    private Leftovers() {
    }

    /**
     * @param owner the invoking user's uid, -1 when unknown: another user's process is theirs to stop
     * @param unseen what the look may have missed: a parent hidden from it may be the live wrapper
     */
    static List<Found> of(ProcessForest forest, FleetPart fleet, ServerTrees servers, List<Found> configured,
            PipeHolders holders, List<ConfiguredServer> entries, int owner, Unseen unseen) {
        Set<Long> clients = new HashSet<>();
        configured.stream().filter(found -> found.client() != null).forEach(found -> clients.add(found.client().pid()));
        Map<Long, HostProcess> clientOf = new HashMap<>();
        for (HostProcess process : forest.all()) {
            if (fleet.spares(process.pid()) || servers.inTrees().contains(process.pid()) || process.stdinTerminal()
                    || ClientKinds.of(process.argv()) != null || owner >= 0 && process.uid() != owner) {
                continue;
            }
            // Known, never guessed: any process at all may be taken for a leftover, and the stop script ends it. A
            // client's own output read by a process (codex exec ... | tee log) is no stdin it made for a server.
            HostProcess client = holders.knownFeeder(process, pid -> !servers.inTrees().contains(pid)
                    && !fleet.contains(pid) && (clients.contains(pid) || ClientKinds.of(forest.get(pid).argv()) != null)
                    && !forest.get(pid).pipesOutput().contains(process.stdinPipe()));
            HostProcess parent = forest.parent(process);
            // Reparented (its parent gone, init or a reaper): a live ordinary parent is its owner, seen or not, and
            // one missing from a table that may hide processes may be live.
            boolean adopted = parent == null ? !unseen.mayHideParentOf(process, forest)
                    : parent.pid() <= ProcessForest.INIT || Reapers.is(parent);
            if (client != null && adopted
                    && forest.ancestors(process).stream().noneMatch(up -> up.pid() == client.pid())) {
                clientOf.put(process.pid(), client);
            }
        }
        Set<Long> stopAt = new HashSet<>(fleet.spared());
        stopAt.addAll(servers.inTrees());
        List<Found> leftovers = new ArrayList<>();
        for (long pid : new TreeSet<>(clientOf.keySet())) {
            HostProcess process = forest.get(pid);
            HostProcess client = clientOf.get(pid);
            // One below another leftover is in that one's tree.
            if (forest.ancestors(process).stream().noneMatch(up -> clientOf.containsKey(up.pid()))) {
                leftovers.add(new Found(process, forest.tree(pid, stopAt), ServerState.LEFTOVER, client,
                        entry(client, configured, entries)));
            }
        }
        return leftovers;
    }

    /** The one entry of {@code client}'s kind with no current instance under it, or none. */
    private static Entry entry(HostProcess client, List<Found> configured, List<ConfiguredServer> entries) {
        ClientKind kind = ClientKinds.of(client.argv());
        if (kind == null) {
            return Entry.NONE;
        }
        Set<Entry> current = new HashSet<>();
        configured.stream()
                .filter(found -> found.state() == ServerState.CURRENT && found.client() != null
                        && found.client().pid() == client.pid())
                .forEach(found -> current.add(found.entry()));
        // The client's project as the report shows it: its servers' entries' one project, else none.
        Set<String> projects = new TreeSet<>();
        configured.stream().filter(found -> found.client() != null && found.client().pid() == client.pid())
                .map(found -> found.entry().project()).filter(Objects::nonNull).forEach(projects::add);
        String project = projects.size() == 1 ? projects.iterator().next() : null;
        Set<String> seen = new HashSet<>();
        List<ConfiguredServer> without = entries.stream()
                .filter(entry -> entry.client() == kind && !current.contains(Entry.of(entry)))
                .filter(entry -> entry.project() == null || entry.project().equals(project))
                .filter(entry -> seen.add(entry.configFile() + "\u0000" + entry.name()))
                .sorted(Entry.ORDER)
                .toList();
        return without.size() == 1 ? Entry.of(without.get(0)) : Entry.NONE;
    }
}
