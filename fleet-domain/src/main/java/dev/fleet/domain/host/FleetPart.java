package dev.fleet.domain.host;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * What {@code fleet host} leaves out (the contract, §14): the observing process itself, and every process
 * matching a pattern of the fleet's roster, with its tree: those are the fleet's own part (§5), reported
 * by {@code fleet assess}. A pattern is found anywhere in the command line, as the observer finds it. Init and
 * the observer's ancestors are spared too ({@link #spares}): shown as clients where they are one, never stopped.
 *
 * <p>The command line is anyone's text and the JDK's engine backtracks, so each search is given a budget
 * of characters to read, linear in the line's length ({@link BoundedText}); a search that spends it
 * counts as no match, and the process is shown rather than hidden. A pattern the JDK cannot compile
 * is one warning and matches nothing.
 */
record FleetPart(Set<Long> pids, Set<Long> spared, List<String> warnings) {

    FleetPart {
        pids = Set.copyOf(pids);
        spared = Set.copyOf(spared);
        warnings = List.copyOf(warnings);
    }

    static FleetPart of(ProcessForest forest, List<String> rosterPatterns, long ownPid) {
        List<Pattern> patterns = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        for (String pattern : rosterPatterns) {
            try {
                patterns.add(Pattern.compile(pattern));
            } catch (PatternSyntaxException e) {
                warnings.add("roster pattern is not a regular expression fleet host can read, ignored: "
                        + Sanitized.oneLine(pattern));
            }
        }
        Set<Long> roots = new HashSet<>();
        if (forest.get(ownPid) != null) {
            roots.add(ownPid);
        }
        for (HostProcess process : forest.all()) {
            String line = process.commandLine();
            if (patterns.stream().anyMatch(pattern -> BoundedText.find(pattern, line))) {
                roots.add(process.pid());
            }
        }
        Set<Long> part = new HashSet<>();
        for (long root : roots) {
            part.addAll(forest.tree(root, Set.of()));
        }
        // The observing process's own children (none, today) would be fleet's too; its parent is not.
        Set<Long> spared = new HashSet<>(part);
        spared.add(ProcessForest.INIT);
        // Without a start, no stop line could check it is still the process seen.
        forest.all().stream().filter(process -> process.startTicks() < 0).forEach(process -> spared.add(process.pid()));
        HostProcess own = forest.get(ownPid);
        if (own != null) {
            forest.ancestors(own).forEach(up -> spared.add(up.pid()));
        }
        return new FleetPart(part, spared, warnings);
    }

    /**
     * Whether {@code pid} is never a server, in a tree or a stray: the fleet's part, init (pid 1, or a pid
     * below it that only a broken snapshot shows), a process without a start, and the observing process's
     * ancestors: among them the shell {@code fleet host --strays --format sh | sh} is typed into, whose stop
     * would end the session running the script. The pipeline's own {@code sh} is {@code fleet}'s sibling, not
     * an ancestor, so it is not spared; it needs no sparing, being no server (unless an entry is a bare
     * {@code sh}), in no tree (a server above it is above {@code fleet} too) and, its parent alive, no
     * leftover. An ancestor may still be a client (a {@code claude} whose shell tool runs {@code fleet host}).
     */
    boolean spares(long pid) {
        return pid <= ProcessForest.INIT || spared.contains(pid);
    }

    boolean contains(long pid) {
        return pids.contains(pid);
    }
}
