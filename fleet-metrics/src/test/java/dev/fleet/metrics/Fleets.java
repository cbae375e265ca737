package dev.fleet.metrics;

import dev.fleet.domain.Binding;
import dev.fleet.domain.RegistryReason;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Scenario;
import dev.fleet.domain.verdict.Verdict;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.List;

/** The verdicts the metrics tests expose: real classifications of made-up snapshots. */
final class Fleets {

    static final BuildInfo BUILD = new BuildInfo("0.1.0-SNAPSHOT", "1a2ad50a");
    /** A profile a hostile roster file might hold: quotes, backslashes and a newline. */
    static final String HOSTILE_PROFILE = "prgs-\"author\"\\n\\\nsecond line";

    private Fleets() {
    }

    /** A verdict and the roster it was classified against. */
    record Fleet(Verdict verdict, Roster roster) {

        byte[] exposition(MetricsFormat format) {
            return Exposition.of(verdict, roster, BUILD, format).body();
        }

        MetricSnapshots metrics() {
            return VerdictMetrics.of(verdict, roster, BUILD);
        }
    }

    private static Fleet of(Scenario scenario) {
        return new Fleet(scenario.classify(), scenario.roster);
    }

    static Fleet satisfied() {
        return of(Scenario.healthyFive());
    }

    /**
     * Every anomaly list the verdict has, non-empty at once: a missing reviewer, a duplicated author,
     * an unexpected member, a stale row, an unverified row, a malformed row, an orphaned instance and an
     * unregistered server.
     */
    static Fleet everyAnomaly() {
        Scenario scenario = new Scenario();
        long pid = 4100;
        for (RosterMember member : scenario.roster.members()) {
            if (!member.role().equals("reviewer")) {
                scenario.server(RowBuilder.row(member, pid++));
            }
        }
        // The second author's client is gone: an orphan, and still the duplicate.
        scenario.server(RowBuilder.row(Scenario.member("author"), 4200).parent(900, Scenario.STARTED.minusSeconds(60)));
        scenario.server(RowBuilder.row(new RosterMember("gitea-stranger", "prgs-stranger", "stranger"), 4201));
        scenario.row(RowBuilder.row(Scenario.member("merger"), 4202)); // no process: process_exited
        RowBuilder notAServer = RowBuilder.row(Scenario.member("controller"), 4203);
        scenario.row(notAServer).process(4203, Scenario.STARTED, "sleep 1000");
        RowBuilder malformed = RowBuilder.row(Scenario.member("merger"), 4204);
        malformed.status = "resting";
        scenario.row(malformed);
        scenario.process(4205, Scenario.STARTED, Scenario.serveCommand("prgs-author"));
        return of(scenario);
    }

    /** Nothing can be established: the registry is missing. */
    static Fleet unreadable() {
        Scenario scenario = Scenario.empty();
        scenario.registryReason = RegistryReason.MISSING;
        return of(scenario);
    }

    /** The healthy five, one of whose profiles is {@link #HOSTILE_PROFILE}. */
    static Fleet hostileProfile() {
        Scenario scenario = new Scenario();
        List<RosterMember> members = new ArrayList<>(scenario.roster.members());
        RosterMember hostile = new RosterMember("gitea-author", HOSTILE_PROFILE, "author");
        members.set(0, hostile);
        scenario.roster = new Roster(Binding.DEFAULT, members, Roster.DEFAULT_SERVER_PROCESS_PATTERNS);
        long pid = 4100;
        for (RosterMember member : members) {
            scenario.server(RowBuilder.row(member, pid++));
        }
        return of(scenario);
    }
}
