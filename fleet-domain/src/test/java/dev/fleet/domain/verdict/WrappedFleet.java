package dev.fleet.domain.verdict;

import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Scenario;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Fleets whose members wrap their own server ({@code fleet serve --profile P -- python3 gitea_mcp.py}): the
 * member's {@code fleet} process (pid 4100 + i) records its child, a Python server (pid 5100 + i) that
 * started just after it, in its row. The roster's patterns see both.
 */
final class WrappedFleet {

    static final String SERVER_PATTERN = "gitea_mcp\\.py";
    static final Roster ROSTER = new Roster(Roster.defaultRoster().binding(), Roster.defaultRoster().members(),
            List.of(Roster.DEFAULT_SERVER_PROCESS_PATTERNS.get(0), SERVER_PATTERN));
    /** Each wrapped server started 300 ms after its member's fleet process. */
    static final Instant SERVER_STARTED = Scenario.STARTED.plusMillis(300);
    static final String USER = "fleet";

    private WrappedFleet() {
    }

    static String serverCommand(String profile) {
        return "python3 /srv/gitea_mcp.py --profile " + profile;
    }

    /** The default five, each wrapping its own server. */
    static Scenario five() {
        Scenario scenario = Scenario.empty();
        scenario.roster = ROSTER;
        List<RosterMember> members = new ArrayList<>(ROSTER.members());
        for (int i = 0; i < members.size(); i++) {
            member(scenario, members.get(i), 4100 + i, 5100 + i);
        }
        return scenario;
    }

    /** {@code member}'s fleet process on {@code pid}, wrapping a server on {@code serverPid}, both observed. */
    static Scenario member(Scenario scenario, RosterMember member, long pid, long serverPid) {
        scenario.server(RowBuilder.registered(member, pid)
                .wraps(serverCommand(member.profile()) + " --token ***", serverPid, SERVER_STARTED));
        return scenario.process(serverPid, pid, SERVER_STARTED, serverCommand(member.profile()), USER);
    }

    static Instance instanceOf(Verdict verdict, String role) {
        return verdict.members().stream().filter(report -> report.member().role().equals(role))
                .flatMap(report -> report.instances().stream()).findFirst().orElseThrow();
    }
}
