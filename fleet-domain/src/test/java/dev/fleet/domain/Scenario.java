package dev.fleet.domain;

import dev.fleet.domain.verdict.FleetClassifier;
import dev.fleet.domain.verdict.Verdict;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** A snapshot under construction, for example-based tests of the classifier. */
public final class Scenario {

    public static final Instant OBSERVED_AT = Instant.parse("2026-07-28T03:00:00Z");
    /** Each healthy server started a little before it registered. */
    public static final Instant STARTED = RowBuilder.REGISTERED.minusMillis(1_750);

    public Roster roster = Roster.defaultRoster();
    public final List<RegistryRow> rows = new ArrayList<>();
    public final List<ObservedProcess> processes = new ArrayList<>();
    public String bootId = RowBuilder.BOOT;
    /** The answerer's own pid namespace. */
    public String pidNamespace = RowBuilder.PID_NAMESPACE;
    public RegistryReason registryReason;
    public String registryDetail;
    public ListingReason listingReason;
    public AnsweredBy answeredBy;
    /** The answerer's own host id; null: unknown, every row is local. */
    public String hostId;
    public Lease lease = Lease.DEFAULT;
    /** The registry's own clock at the read; null: none (the answerer's, {@link #OBSERVED_AT}, stands in). */
    public Instant registryClock;

    public static Scenario empty() {
        return new Scenario();
    }

    /** The five default members, each registered and observed once: a satisfied gate. */
    public static Scenario healthyFive() {
        Scenario scenario = new Scenario();
        long pid = 4100;
        for (RosterMember member : scenario.roster.members()) {
            scenario.server(RowBuilder.row(member, pid++));
        }
        return scenario;
    }

    public static RosterMember member(String role) {
        return Roster.defaultRoster().members().stream()
                .filter(member -> member.role().equals(role)).findFirst().orElseThrow();
    }

    /** A registered server whose process is observed, started shortly before it registered. */
    public Scenario server(RowBuilder row) {
        rows.add(row.build());
        return process(row.pid, STARTED, serveCommand(row.profile));
    }

    public Scenario row(RowBuilder row) {
        rows.add(row.build());
        return this;
    }

    public Scenario process(long pid, Instant startedAt, String commandLine) {
        processes.add(new ObservedProcess(pid, startedAt, commandLine, "fleet", looksLikeServer(commandLine)));
        return this;
    }

    /** A process of {@code user} started by {@code parentPid} (null: none known). */
    public Scenario process(long pid, Long parentPid, Instant startedAt, String commandLine, String user) {
        processes.add(new ObservedProcess(pid, startedAt, commandLine, user, looksLikeServer(commandLine), parentPid));
        return this;
    }

    /**
     * Stands in for the observer's matcher (RE2J, out of this JDK-only module's reach) when a test
     * makes up an observation: the patterns these tests use mean the same to the JDK's engine.
     */
    private boolean looksLikeServer(String commandLine) {
        return roster.serverProcessPatterns().stream()
                .anyMatch(pattern -> java.util.regex.Pattern.compile(pattern).matcher(commandLine).find());
    }

    public Scenario removeProcess(long pid) {
        processes.removeIf(process -> process.pid() == pid);
        return this;
    }

    public static String serveCommand(String profile) {
        return "java -XX:TieredStopAtLevel=1 -jar /opt/fleet/fleet.jar serve --profile " + profile;
    }

    public Snapshot snapshot() {
        RegistryRead registry = registryReason == null ? RegistryRead.of(rows, registryClock)
                : RegistryRead.unreadable(registryReason, registryDetail);
        ProcessObservation observation = listingReason == null
                ? ProcessObservation.of(bootId, "fleet-host", pidNamespace, processes)
                : ProcessObservation.unavailable(listingReason, bootId, "fleet-host", pidNamespace);
        return new Snapshot(roster, registry, observation, OBSERVED_AT, "/state/control_plane.sqlite3", answeredBy,
                hostId, lease);
    }

    public Verdict classify() {
        return FleetClassifier.classify(snapshot());
    }
}
