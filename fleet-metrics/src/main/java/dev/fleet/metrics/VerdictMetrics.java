package dev.fleet.metrics;

import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.verdict.BlockedCode;
import dev.fleet.domain.verdict.BlockedReason;
import dev.fleet.domain.verdict.MemberReport;
import dev.fleet.domain.verdict.Verdict;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A verdict as the metric families of docs/CONTRACT.md, "Metrics", every one a gauge, in the client library's model.
 * Labels carry only what is fixed by the roster, the contract's codes and the build: never a pid, a
 * runtime id or a digest, which change with every restart and would make a new series each time.
 */
final class VerdictMetrics {

    private VerdictMetrics() {
    }

    /**
     * @param roster the roster the verdict was classified against: every member gets its series, also
     *     when nothing could be established and the verdict lists no member (then 0, as it counts 0 running)
     */
    static MetricSnapshots of(Verdict verdict, Roster roster, BuildInfo build) {
        List<MetricSnapshot> families = new ArrayList<>();
        families.add(gauge("fleet_mutation_gate_satisfied",
                "1 when the mutation gate is satisfied (no blocked reason applies), else 0.",
                bit(verdict.mutationGateSatisfied())));
        families.add(gauge("fleet_inventory_complete",
                "1 when the inventory could be established (no blocked reason of priority 1-7 applies), else 0.",
                bit(verdict.inventoryComplete())));
        families.add(gauge("fleet_expected_members", "Members the roster expects.", verdict.expectedMemberCount()));
        families.add(gauge("fleet_running_instances",
                "Running instances of roster members, duplicates included (a sixth process shows as 6 of 5).",
                verdict.runningMemberCount()));
        families.add(memberInstances(verdict, roster));
        families.add(blocked(verdict));
        families.add(anomalies(verdict));
        families.add(gauge("fleet_registry_readable", "1 when the registry could be read, else 0.",
                bit(verdict.registry().readable())));
        families.add(gauge("fleet_process_listing_available", "1 when the process table could be read, else 0.",
                bit(verdict.processListing().available())));
        families.add(gauge("fleet_registrations", "Registry rows read, whatever their status.",
                verdict.registry().registrationCount()));
        agreement(families, "fleet_single_cohort", "1 when every instance shares one client cohort, 0 when they "
                + "differ; absent when some cohort is unknown or no instance runs.", verdict.singleCohort());
        agreement(families, "fleet_single_revision", "1 when every instance started from one revision, 0 when they "
                + "differ; absent when some revision is unknown or no instance runs.", verdict.singleRevision());
        if (verdict.observation().observedAt() != null) {
            families.add(GaugeSnapshot.builder().name("fleet_observed_timestamp_seconds").unit(Unit.SECONDS)
                    .help("When the assessment observed the fleet, in seconds since the epoch.")
                    .dataPoint(point(Labels.EMPTY, verdict.observation().observedAt().toEpochMilli() / 1000.0))
                    .build());
        }
        families.add(GaugeSnapshot.builder().name("fleet_build_info")
                .help("Always 1; the labels name the version and the git commit of the answering build.")
                .dataPoint(point(Labels.of("version", build.version(), "commit", build.commit()), 1)).build());
        return new MetricSnapshots(families);
    }

    /** One series per roster member, missing members included (0), so an absent series never hides one. */
    private static GaugeSnapshot memberInstances(Verdict verdict, Roster roster) {
        Map<RosterMember, Integer> instances = new HashMap<>();
        for (MemberReport report : verdict.members()) {
            instances.put(report.member(), report.instances().size());
        }
        GaugeSnapshot.Builder family = GaugeSnapshot.builder().name("fleet_member_instances")
                .help("Running instances of each roster member: 1 is right, 0 missing, 2 or more duplicated.");
        for (RosterMember member : roster.members()) {
            family.dataPoint(point(Labels.of("namespace", member.namespace(), "profile", member.profile(), "role",
                    member.role()), instances.getOrDefault(member, 0)));
        }
        return family.build();
    }

    /** One series per blocked code of the contract, 1 when it applies: a state set of the gate's reasons. */
    private static GaugeSnapshot blocked(Verdict verdict) {
        Set<BlockedCode> applying = verdict.blockedReasons().stream().map(BlockedReason::code)
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(BlockedCode.class)));
        GaugeSnapshot.Builder family = GaugeSnapshot.builder().name("fleet_blocked")
                .help("1 when the blocked code closes the mutation gate, else 0; one series for every code.");
        for (BlockedCode code : BlockedCode.values()) {
            family.dataPoint(point(Labels.of("code", code.code()), bit(applying.contains(code))));
        }
        return family.build();
    }

    private static GaugeSnapshot anomalies(Verdict verdict) {
        GaugeSnapshot.Builder family = GaugeSnapshot.builder().name("fleet_anomalies")
                .help("Entries of each anomaly list of the verdict, counted whole.");
        for (AnomalyKind kind : AnomalyKind.values()) {
            family.dataPoint(point(Labels.of("kind", kind.code()), kind.count(verdict)));
        }
        return family.build();
    }

    /** A 0/1 agreement, or nothing when the verdict says it is unknown (null). */
    private static void agreement(List<MetricSnapshot> families, String name, String help, Boolean single) {
        if (single != null) {
            families.add(gauge(name, help, bit(single)));
        }
    }

    private static GaugeSnapshot gauge(String name, String help, double value) {
        return GaugeSnapshot.builder().name(name).help(help).dataPoint(point(Labels.EMPTY, value)).build();
    }

    private static GaugeDataPointSnapshot point(Labels labels, double value) {
        return GaugeDataPointSnapshot.builder().labels(labels).value(value).build();
    }

    private static double bit(boolean value) {
        return value ? 1 : 0;
    }
}
