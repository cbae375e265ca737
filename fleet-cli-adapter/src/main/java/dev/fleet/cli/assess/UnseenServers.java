package dev.fleet.cli.assess;

import dev.fleet.domain.Printable;
import dev.fleet.domain.Roster;
import dev.fleet.domain.verdict.Instance;
import dev.fleet.domain.verdict.MemberReport;
import dev.fleet.domain.verdict.Verdict;
import dev.fleet.observer.ServerPatterns;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code fleet assess}'s warning about servers it cannot see: a live member that wraps a server whose
 * command line none of the roster's patterns finds. Its own copy is counted through the member, but a
 * copy of that server started without {@code fleet} (a client configured by hand, a generation left
 * behind) would match no pattern, so it would never be an {@code unregistered_process} and never
 * close the gate. Judged on {@code server_command} as the row recorded it, secrets masked: the real
 * command line is not at hand, and a pattern that needs a secret's text finds nothing here.
 */
final class UnseenServers {

    private UnseenServers() {
    }

    /** The one warning line for {@code verdict}'s members, or empty when every wrapped server would be seen. */
    static Optional<String> warning(Verdict verdict, Roster fleet) {
        ServerPatterns patterns = ServerPatterns.compile(fleet.serverProcessPatterns());
        List<Instance> unseen = new ArrayList<>();
        for (MemberReport report : verdict.members()) {
            for (Instance instance : report.instances()) {
                if (instance.serverCommand() != null && !patterns.matches(instance.serverCommand())) {
                    unseen.add(instance);
                }
            }
        }
        if (unseen.isEmpty()) {
            return Optional.empty();
        }
        Instance first = unseen.get(0);
        String whose = unseen.size() == 1 ? first.namespace() + " wraps"
                : first.namespace() + " and " + (unseen.size() - 1) + " more wrap";
        return Optional.of("fleet: warning: the server " + Printable.of(whose) + " (" + Printable.of(
                first.serverCommand()) + ") matches none of the roster's server_process_patterns, so a copy of it "
                + "started without fleet cannot be seen: add its pattern (fleet mcp-config --server-command ... "
                + "--roster FILE --update-roster)");
    }
}
