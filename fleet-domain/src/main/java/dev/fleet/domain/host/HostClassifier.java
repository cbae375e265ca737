package dev.fleet.domain.host;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongPredicate;
import java.util.stream.Collectors;

/**
 * {@code fleet host}'s classification (the contract, §14) as one pure function: snapshot in, report out.
 * No clock, no I/O, no randomness; the order in which processes or configured entries arrive never
 * matters. Each step is a function from what it reads to what it decides:
 * <ol>
 *   <li>{@link ProcessForest}: one process per pid, parents and children;</li>
 *   <li>{@link FleetPart}: the observing process and the fleet's own processes, left out;</li>
 *   <li>{@link ServerTrees}: processes matching a configured entry ({@link LaunchForm}), with their trees;</li>
 *   <li>{@link Generations}: each server's client ({@link Placement}, {@link ClientKinds}) and state:
 *       current, stale_generation, duplicate, orphaned, manual;</li>
 *   <li>{@link Leftovers}: processes that outlived the server that started them;</li>
 *   <li>{@link Unconfigured}: with {@code all}, everything else that looks like an MCP server;</li>
 *   <li>{@link ReportAssembly}: clients, servers in their one order, stop lines and the stop script.</li>
 * </ol>
 */
public final class HostClassifier {

    private HostClassifier() {
    }

    /** "pid 7" or "pids 7, 9", in order. */
    private static String pids(List<Long> pids) {
        return (pids.size() == 1 ? "pid " : "pids ") + pids.stream().sorted().map(String::valueOf)
                .collect(Collectors.joining(", "));
    }

    private static String are(List<Long> pids) {
        return pids.size() == 1 ? " is" : " are";
    }

    /** The report of {@code snapshot}; {@code all} adds the unconfigured processes ({@code --all}). */
    public static HostReport classify(HostSnapshot snapshot, boolean all) {
        return inventory(snapshot, all).report();
    }

    /** The report of {@code snapshot} with the stop script of its strays. */
    public static HostInventory inventory(HostSnapshot snapshot, boolean all) {
        ProcessForest forest = ProcessForest.of(snapshot.processes());
        FleetPart fleet = FleetPart.of(forest, snapshot.fleetPids(), snapshot.ownPid());
        HostProcess own = forest.get(snapshot.ownPid());
        int owner = own == null ? -1 : own.uid();
        ServerTrees servers = ServerTrees.of(forest, fleet, snapshot.configured(), owner);
        PipeHolders holders = PipeHolders.of(forest);
        LongPredicate mayFeed = pid -> !servers.inTrees().contains(pid) && !fleet.contains(pid);

        // A holder the look could not see may be any server's client: without every process's files, no
        // unfed stdin proves its client gone. Init and the known reapers are no client (§14), so theirs need not be read.
        long unread = forest.all().stream().filter(process -> !process.fdsRead() && mayFeed.test(process.pid())
                && process.pid() > ProcessForest.INIT && !Reapers.is(process)).count();
        // A table that may hide processes (hidepid) hides their files too, and a parent missing from it may be live.
        Unseen unseen = new Unseen(unread, snapshot.partial());

        List<Found> found = new ArrayList<>(Generations.of(servers, forest, holders, mayFeed, unseen));
        Map<Placement.Why, List<Long>> undecided = new EnumMap<>(Placement.Why.class);
        for (Found server : found) {
            if (server.state() == ServerState.CURRENT && server.client() == null && Placement.of(server.root(), forest,
                    holders, mayFeed, unseen) instanceof Placement.Undecided placement) {
                undecided.computeIfAbsent(placement.why(), why -> new ArrayList<>()).add(server.root().pid());
            }
        }
        List<Found> leftovers = Leftovers.of(forest, fleet, servers, List.copyOf(found), holders, snapshot.configured(),
                owner, unseen);
        found.addAll(leftovers);
        if (all) {
            Set<Long> taken = new HashSet<>(fleet.spared());
            taken.addAll(servers.inTrees());
            leftovers.forEach(leftover -> taken.addAll(leftover.pids()));
            found.addAll(Unconfigured.of(forest, taken, holders, mayFeed, unseen));
        }
        List<String> warnings = new ArrayList<>(snapshot.warnings());
        undecided.forEach((why, pids) -> warnings.add(switch (why) {
            case UNSEEN -> "cannot tell whether " + pids(pids) + are(pids) + " orphaned: " + unseen.why()
                    + "; shown current, without a client";
            case SOCKET -> "cannot tell which process feeds " + pids(pids) + ": a socket's peer is named by no "
                    + "look, only guessed from the inode next to it, and a guess never makes a stray; shown current, "
                    + "without a client";
            case NO_CHANNEL -> "cannot tell whether " + pids(pids) + are(pids) + " orphaned: " + (pids.size() == 1
                    ? "its stdin reads" : "their stdins read") + " no pipe or socket (a daemon's /dev/null), where every "
                    + "stdio server a client starts reads its client's, so nothing shows a client gone; shown current, "
                    + "without a client";
        }));
        return ReportAssembly.assemble(found, forest, snapshot.bootId(), warnings, snapshot.processTableRead());
    }
}
