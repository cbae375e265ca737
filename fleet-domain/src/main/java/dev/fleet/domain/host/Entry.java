package dev.fleet.domain.host;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The configured entry a server process is reported under: its file, its name and its project. A
 * process started by a client of a known kind is that client's entry (or its entries, where several
 * match it alike); one without a client of a known kind (an orphan, a server started by hand, an
 * unknown client) is every entry its argv matches (the contract, §14, "Client kind"); several are
 * reported as one, their distinct files and names each sorted and joined by {@code ", "}. A process
 * matching no entry has none: every field null.
 */
record Entry(String configFile, String name, String project) {

    static final Entry NONE = new Entry(null, null, null);

    /** The one order of configured entries, total over what they say, so no reading order shows through. */
    static final Comparator<ConfiguredServer> ORDER = Comparator
            .comparing((ConfiguredServer server) -> server.client().label())
            .thenComparing(ConfiguredServer::configFile)
            .thenComparing(ConfiguredServer::name)
            .thenComparing(ConfiguredServer::project, Comparator.nullsFirst(Comparator.naturalOrder()))
            .thenComparing(ConfiguredServer::command)
            .thenComparing(server -> String.join("\u0000", server.args()))
            .thenComparing(server -> server.launchForms().toString());

    static Entry of(ConfiguredServer server) {
        return new Entry(server.configFile(), server.name(), server.project());
    }

    /**
     * The entries a process whose argv matches {@code matches} (sorted by {@link #ORDER}) and whose client
     * is of {@code kind} (null when unknown or gone) may be: its client's own, else every match. Its client
     * may have several that its argv matches alike (two names for one command, told apart only by what a
     * look does not read, such as their environments): the process is any of them.
     */
    static List<ConfiguredServer> candidates(List<ConfiguredServer> matches, ClientKind kind) {
        List<ConfiguredServer> own = kind == null ? List.of()
                : matches.stream().filter(server -> server.client() == kind).toList();
        return own.isEmpty() ? matches : own;
    }

    /**
     * How many instances of {@code candidates} one client runs at once: one a name, among what one client
     * loads: a kind's user-wide entries and one project's (a project's entry of a user-wide name overrides
     * it; another project's block is another client's). The most any one such client could run.
     */
    static int instances(List<ConfiguredServer> candidates) {
        int most = 1;
        Map<ClientKind, List<ConfiguredServer>> byKind = new EnumMap<>(ClientKind.class);
        candidates.forEach(server -> byKind.computeIfAbsent(server.client(), kind -> new ArrayList<>()).add(server));
        for (List<ConfiguredServer> kind : byKind.values()) {
            Set<String> userWide = new HashSet<>();
            Map<String, Set<String>> byProject = new HashMap<>();
            for (ConfiguredServer server : kind) {
                (server.project() == null ? userWide : byProject.computeIfAbsent(server.project(),
                        project -> new HashSet<>())).add(server.name());
            }
            most = Math.max(most, userWide.size());
            for (Set<String> project : byProject.values()) {
                Set<String> loaded = new HashSet<>(userWide);
                loaded.addAll(project);
                most = Math.max(most, loaded.size());
            }
        }
        return most;
    }

    /** Every entry of {@code matches}: one as it is, several joined. */
    static Entry every(List<ConfiguredServer> matches) {
        if (matches.isEmpty()) {
            return NONE;
        }
        TreeSet<String> files = new TreeSet<>();
        TreeSet<String> names = new TreeSet<>();
        TreeSet<String> projects = new TreeSet<>();
        for (ConfiguredServer server : matches) {
            files.add(server.configFile());
            names.add(server.name());
            if (server.project() != null) {
                projects.add(server.project());
            }
        }
        boolean allUserWide = matches.stream().map(ConfiguredServer::project).allMatch(Objects::isNull);
        return new Entry(String.join(", ", files), String.join(", ", names),
                allUserWide || projects.size() != 1 ? null : projects.first());
    }
}
