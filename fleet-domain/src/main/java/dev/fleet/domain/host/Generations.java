package dev.fleet.domain.host;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.LinkedHashMap;
import java.util.function.LongPredicate;

/**
 * The states of the configured servers (the contract, §14): a server started by hand is {@code manual},
 * one whose client is gone {@code orphaned} ({@link Placement}), one whose stdin reads no pipe or socket
 * {@code current} under its parent, as no instance of a client's; the others are grouped by client and
 * entry, and in each group the youngest instance is {@code current} (the youngest as many as the entries
 * its argv matches alike: each of those runs once); an older one is {@code duplicate}
 * when the next younger one started less than 1 s after it (two copies started together: the older is
 * the stray), else {@code stale_generation}.
 */
final class Generations {

    /** Clock ticks per second as {@code /proc} counts them: Linux's USER_HZ, 100 on every architecture. */
    static final long TICKS_PER_SECOND = 100;

    private static final Comparator<HostProcess> OLDEST_FIRST = Comparator.comparingLong(HostProcess::startTicks)
            .thenComparingLong(HostProcess::pid);

    private Generations() {
    }

    /** One client's instances of one entry (or of entries its argv matches alike, as many as {@code instances}). */
    private record Group(long clientPid, Entry entry, int instances) {
    }

    static List<Found> of(ServerTrees servers, ProcessForest forest, PipeHolders holders, LongPredicate mayFeed,
            Unseen unseen) {
        List<Found> found = new ArrayList<>();
        // Trees come in pid order, so the groups do too: nothing here depends on how the processes arrived.
        Map<Group, List<Found>> groups = new LinkedHashMap<>();
        servers.trees().forEach((rootPid, pids) -> {
            HostProcess root = forest.get(rootPid);
            List<ConfiguredServer> matches = servers.matches().get(rootPid);
            Placement placement = Placement.of(root, forest, holders, mayFeed, unseen);
            if (placement instanceof Placement.Client client) {
                HostProcess process = client.process();
                List<ConfiguredServer> candidates = Entry.candidates(matches, ClientKinds.of(process.argv()));
                Entry entry = Entry.every(candidates);
                Found instance = new Found(root, pids, ServerState.CURRENT, process, entry);
                if (root.stdinPipe() == null) {
                    // No stdio server its client started: each reads the client's pipe or socket. Any process may match
                    // an entry (a cloned repository's names what it likes), a script's background jobs alike.
                    found.add(instance);
                } else {
                    groups.computeIfAbsent(new Group(process.pid(), entry, Entry.instances(candidates)),
                            key -> new ArrayList<>()).add(instance);
                }
            } else if (placement instanceof Placement.Undecided) {
                // Never a stray: its client may be one the look could not see.
                found.add(new Found(root, pids, ServerState.CURRENT, null, Entry.every(matches)));
            } else {
                ServerState state = placement instanceof Placement.Manual ? ServerState.MANUAL : ServerState.ORPHANED;
                found.add(new Found(root, pids, state, null, Entry.every(matches)));
            }
        });
        groups.forEach((key, group) -> {
            group.sort(Comparator.comparing(Found::root, OLDEST_FIRST));
            for (int i = 0; i < group.size(); i++) {
                Found instance = group.get(i);
                ServerState state = i >= group.size() - key.instances() ? ServerState.CURRENT
                        : lessThanASecondApart(instance.root(), group.get(i + 1).root())
                                ? ServerState.DUPLICATE : ServerState.STALE_GENERATION;
                found.add(new Found(instance.root(), instance.pids(), state, instance.client(), instance.entry()));
            }
        });
        return found;
    }

    /** By the instants where both are known (to the millisecond), else by the ticks. */
    static boolean lessThanASecondApart(HostProcess older, HostProcess younger) {
        if (older.startedAt() != null && younger.startedAt() != null) {
            return Duration.between(older.startedAt(), younger.startedAt()).abs().compareTo(Duration.ofSeconds(1)) < 0;
        }
        return Math.abs(younger.startTicks() - older.startTicks()) < TICKS_PER_SECOND;
    }
}
