package dev.fleet.domain.host;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongPredicate;

/**
 * What {@code --all} adds (the contract, §14): every other process that looks like an MCP server, its
 * stdin and stdout both pipes and its command line naming {@code mcp} (in any case), with its tree;
 * shown as {@code unconfigured}, never a stray. Its client is found as a server's is ({@link
 * Placement}); one whose client is gone is shown without one.
 */
final class Unconfigured {

    private Unconfigured() {
    }

    static List<Found> of(ProcessForest forest, Set<Long> taken, PipeHolders holders, LongPredicate mayFeed,
            Unseen unseen) {
        Set<Long> looksLikeServer = new TreeSet<>();
        for (HostProcess process : forest.all()) {
            if (!taken.contains(process.pid()) && process.stdinPipe() != null && process.stdoutPipe()
                    && !process.stdinTerminal() && ClientKinds.of(process.argv()) == null
                    && process.commandLine().toLowerCase(Locale.ROOT).contains("mcp")) {
                looksLikeServer.add(process.pid());
            }
        }
        Set<Long> stopAt = new HashSet<>(taken);
        List<Found> found = new ArrayList<>();
        for (long pid : looksLikeServer) {
            HostProcess process = forest.get(pid);
            if (forest.ancestors(process).stream().anyMatch(up -> looksLikeServer.contains(up.pid()))) {
                continue; // in the tree of the one above it
            }
            Placement placement = Placement.of(process, forest, holders, mayFeed, unseen);
            HostProcess client = placement instanceof Placement.Client c ? c.process() : null;
            found.add(new Found(process, forest.tree(pid, stopAt), ServerState.UNCONFIGURED, client, Entry.NONE));
        }
        return found;
    }
}
