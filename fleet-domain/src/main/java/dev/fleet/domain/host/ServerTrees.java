package dev.fleet.domain.host;

import dev.fleet.domain.SecretMask;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The server processes and their trees (the contract, §14): a process whose argv matches a configured
 * entry ({@link LaunchForm}) is a server process, with its descendants (the {@code node} under an
 * {@code npx}). A matching process below another one belongs to the upper one's tree (a wrapper and
 * the program it runs may both show the entry's args); what the fleet's part spares (its own processes, init,
 * the observer's ancestors) is never a server nor in a tree. A process's
 * argv is observed masked ({@link SecretMask#argvApart}: it is shown), so each launch form is masked the same
 * way before the two are compared: an entry with {@code --token=abc123} in its args matches the process that
 * shows {@code --token=***}, and the secret is kept nowhere in what the classification builds.
 *
 * @param matches each server root's matching entries, sorted by {@link Entry#ORDER}, by root pid
 * @param trees each server root's tree, the root first, by root pid
 * @param inTrees every pid of every tree
 */
record ServerTrees(Map<Long, List<ConfiguredServer>> matches, Map<Long, List<Long>> trees, Set<Long> inTrees) {

    /**
     * @param owner the invoking user's uid, -1 when unknown: another user's process is no server of this
     *     user's configuration, whatever its argv (its client is another user's, and the stop line could not
     *     stop it)
     */
    static ServerTrees of(ProcessForest forest, FleetPart fleet, List<ConfiguredServer> configured, int owner) {
        List<ConfiguredServer> entries = new ArrayList<>(new HashSet<>(configured));
        entries.sort(Entry.ORDER);
        Map<ConfiguredServer, List<List<String>>> maskedForms = new LinkedHashMap<>();
        for (ConfiguredServer entry : entries) {
            maskedForms.put(entry, entry.launchForms().stream().map(SecretMask::argvApart).toList());
        }
        Map<Long, List<ConfiguredServer>> matched = new TreeMap<>();
        for (HostProcess process : forest.all()) {
            if (fleet.spares(process.pid()) || owner >= 0 && process.uid() != owner) {
                continue;
            }
            LaunchForm.Shown shown = LaunchForm.Shown.of(process.argv());
            List<ConfiguredServer> matching = entries.stream()
                    .filter(entry -> maskedForms.get(entry).stream().anyMatch(shown::matches))
                    .toList();
            if (!matching.isEmpty()) {
                matched.put(process.pid(), matching);
            }
        }
        Map<Long, List<ConfiguredServer>> roots = new TreeMap<>();
        matched.forEach((pid, matching) -> {
            boolean below = forest.ancestors(forest.get(pid)).stream().anyMatch(up -> matched.containsKey(up.pid()));
            if (!below) {
                roots.put(pid, matching);
            }
        });
        Map<Long, List<Long>> trees = new TreeMap<>();
        Set<Long> inTrees = new HashSet<>();
        for (long root : roots.keySet()) {
            List<Long> tree = forest.tree(root, fleet.spared());
            trees.put(root, tree);
            inTrees.addAll(tree);
        }
        return new ServerTrees(Collections.unmodifiableMap(roots), Collections.unmodifiableMap(trees),
                Collections.unmodifiableSet(inTrees));
    }
}
