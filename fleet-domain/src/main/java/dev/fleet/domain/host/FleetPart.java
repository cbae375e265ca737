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
 * by {@code fleet assess}. A pattern is found anywhere in the command line, as the observer finds it.
 *
 * <p>The command line is anyone's text and the JDK's engine backtracks, so each search is given a budget
 * of characters to read, linear in the line's length ({@link BoundedText}); a search that spends it
 * counts as no match, and the process is shown rather than hidden. A pattern the JDK cannot compile
 * is one warning and matches nothing.
 */
record FleetPart(Set<Long> pids, List<String> warnings) {

    FleetPart {
        pids = Set.copyOf(pids);
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
        return new FleetPart(part, warnings);
    }

    boolean contains(long pid) {
        return pids.contains(pid);
    }
}
