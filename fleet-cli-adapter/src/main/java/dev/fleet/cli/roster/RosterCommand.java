package dev.fleet.cli.roster;

import dev.fleet.cli.exit.ExitCodes;
import dev.fleet.domain.Printable;
import dev.fleet.cli.text.Table;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.verdict.encoding.CanonicalJson;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;

/**
 * {@code fleet roster}: the effective roster, after validation. Its JSON has a roster file's own
 * shape, so that {@code fleet roster --format json > my-roster.json} starts a roster of one's own.
 */
@Command(name = RosterCommand.NAME,
        description = {"Print the effective roster: members, binding and server process patterns.",
            "Its JSON is a roster file: a start for a roster of your own (--roster FILE)."})
public final class RosterCommand extends RosterVerb {

    /** The verb's name, declared here once: {@code FleetCli} registers the verb by it. */
    public static final String NAME = "roster";

    @Override
    public Integer call() {
        Roster effective = roster.roster();
        format.print(() -> CanonicalJson.encode(document(effective)), () -> text(effective));
        return ExitCodes.OK;
    }

    private static Map<String, Object> document(Roster roster) {
        Map<String, Object> binding = new LinkedHashMap<>();
        binding.put("remote", roster.binding().remote());
        binding.put("org", roster.binding().org());
        binding.put("repo", roster.binding().repo());
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("binding", binding);
        tree.put("members", roster.members().stream().<Object>map(member -> {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("namespace", member.namespace());
            entry.put("profile", member.profile());
            entry.put("role", member.role());
            return entry;
        }).toList());
        tree.put("server_process_patterns", roster.serverProcessPatterns());
        return tree;
    }

    /** Every value came from a roster file: shown {@link Printable}, never obeyed. */
    private String text(Roster effective) {
        StringBuilder text = new StringBuilder(String.format("binding  remote=%s org=%s repo=%s%n",
                Printable.of(effective.binding().remote()),
                Printable.of(effective.binding().org()), Printable.of(effective.binding().repo())));
        Table table = new Table("NAMESPACE", "PROFILE", "ROLE");
        for (RosterMember member : effective.members()) {
            table.row(member.namespace(), member.profile(), member.role());
        }
        text.append(table.render()).append(String.format("server process patterns:%n"));
        effective.serverProcessPatterns().forEach(pattern -> text.append(String.format("  %s%n",
                Printable.of(pattern))));
        return text.toString();
    }
}
