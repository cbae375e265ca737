package dev.fleet.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.Code;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.Scenario;
import dev.fleet.domain.verdict.BlockedCode;
import dev.fleet.domain.verdict.BlockedReason;
import dev.fleet.domain.verdict.FlaggedRegistration;
import dev.fleet.domain.verdict.Verdict;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Label;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The series of docs/CONTRACT.md, "Metrics", read back from the client library's model the writers print. */
class VerdictMetricsTest {

    private static final Set<String> ALWAYS = Set.of("fleet_mutation_gate_satisfied", "fleet_inventory_complete",
            "fleet_expected_members", "fleet_running_instances", "fleet_member_instances", "fleet_blocked",
            "fleet_anomalies", "fleet_registry_readable", "fleet_process_listing_available", "fleet_registrations",
            "fleet_observed_timestamp_seconds", "fleet_build_info");
    private static final Set<String> LABEL_NAMES = Set.of("namespace", "profile", "role", "code", "kind", "version",
            "commit");

    @Test
    void aSatisfiedFleetHasEverySeriesOfTheContract() {
        Map<String, GaugeSnapshot> families = families(Fleets.satisfied());
        Set<String> expected = new HashSet<>(ALWAYS);
        expected.addAll(Set.of("fleet_single_cohort", "fleet_single_revision"));
        assertEquals(expected, families.keySet());
        assertEquals(1, value(families, "fleet_mutation_gate_satisfied"));
        assertEquals(1, value(families, "fleet_inventory_complete"));
        assertEquals(5, value(families, "fleet_expected_members"));
        assertEquals(5, value(families, "fleet_running_instances"));
        assertEquals(1, value(families, "fleet_single_cohort"));
        assertEquals(1, value(families, "fleet_build_info"));
        assertEquals(Scenario.OBSERVED_AT.toEpochMilli() / 1000.0, value(families, "fleet_observed_timestamp_seconds"));
        families.get("fleet_member_instances").getDataPoints()
                .forEach(point -> assertEquals(1, point.getValue(), point.getLabels().toString()));
    }

    @Test
    void everyBlockedCodeHasItsSeriesOneWhenItApplies() {
        for (Fleets.Fleet fleet : List.of(Fleets.satisfied(), Fleets.everyAnomaly(), Fleets.unreadable())) {
            Verdict verdict = fleet.verdict();
            Set<BlockedCode> applying = verdict.blockedReasons().stream().map(BlockedReason::code)
                    .collect(Collectors.toSet());
            Map<String, Double> byCode = byLabel(families(fleet).get("fleet_blocked"), "code");
            assertEquals(codes(BlockedCode.values()), byCode.keySet());
            for (BlockedCode code : BlockedCode.values()) {
                assertEquals(applying.contains(code) ? 1 : 0, byCode.get(code.code()), code.code());
            }
        }
        assertEquals(1, byLabel(families(Fleets.unreadable()).get("fleet_blocked"), "code")
                .get("registry_unreadable"));
    }

    @Test
    void everyAnomalyKindCountsItsWholeList() {
        Fleets.Fleet fleet = Fleets.everyAnomaly();
        Verdict verdict = fleet.verdict();
        Map<String, Double> byKind = byLabel(families(fleet).get("fleet_anomalies"), "kind");
        assertEquals(Set.of("missing", "duplicate", "unexpected", "stale", "unverified", "malformed", "unregistered",
                "orphaned"), byKind.keySet());
        assertEquals(verdict.missingMembers().size(), byKind.get("missing"));
        assertEquals(verdict.duplicateMembers().size(), byKind.get("duplicate"));
        assertEquals(verdict.unexpectedMembers().size(), byKind.get("unexpected"));
        assertEquals(verdict.staleRegistrations().size(), byKind.get("stale"));
        assertEquals(verdict.unverifiedRegistrations().size(), byKind.get("unverified"));
        assertEquals(verdict.malformedRegistrations().size(), byKind.get("malformed"));
        assertEquals(verdict.unregisteredProcesses().size(), byKind.get("unregistered"));
        assertEquals(verdict.orphanedInstances().size(), byKind.get("orphaned"));
        byKind.forEach((kind, count) -> assertTrue(count > 0, kind + " is present"));
        assertEquals(0, value(families(fleet), "fleet_mutation_gate_satisfied"));
        assertEquals(0, value(families(fleet), "fleet_inventory_complete"));
        assertEquals(2, byLabel(families(fleet).get("fleet_member_instances"), "role").get("author"));
        assertEquals(0, byLabel(families(fleet).get("fleet_member_instances"), "role").get("reviewer"));
    }

    @Test
    void labelsNeverCarryAPidARuntimeIdOrADigest() {
        for (Fleets.Fleet fleet : List.of(Fleets.satisfied(), Fleets.everyAnomaly(), Fleets.unreadable())) {
            Set<String> forbidden = identifiers(fleet.verdict());
            for (GaugeSnapshot family : families(fleet).values()) {
                for (DataPointSnapshot point : family.getDataPoints()) {
                    for (Label label : point.getLabels()) {
                        assertTrue(LABEL_NAMES.contains(label.getName()), family.getMetadata().getName() + " has "
                                + label.getName());
                        forbidden.forEach(id -> assertFalse(label.getValue().contains(id),
                                family.getMetadata().getName() + "{" + label + "} carries " + id));
                    }
                }
            }
        }
    }

    @Test
    void unknownAgreementsAreAbsentNotZero() {
        Map<String, GaugeSnapshot> families = families(Fleets.unreadable());
        assertEquals(ALWAYS, families.keySet());
        assertEquals(0, value(families, "fleet_registry_readable"));
        assertEquals(0, value(families, "fleet_running_instances"));
        Map<String, Double> members = byLabel(families.get("fleet_member_instances"), "profile");
        assertEquals(Roster.defaultRoster().members().stream().map(RosterMember::profile).collect(Collectors.toSet()),
                members.keySet(), "every roster member has its series, also when nothing could be established");
        members.values().forEach(count -> assertEquals(0, count));
    }

    @Test
    void hostileLabelValuesAreEscapedByTheWriters() {
        String escaped = "profile=\"prgs-\\\"author\\\"\\\\n\\\\\\nsecond line\"";
        for (MetricsFormat format : MetricsFormat.values()) {
            String text = new String(Fleets.hostileProfile().exposition(format), StandardCharsets.UTF_8);
            assertTrue(text.contains(escaped), format + ":\n" + text);
            assertFalse(text.contains("\nsecond line"), "a raw newline would end the series line");
        }
    }

    @Test
    void openMetricsEndsWithEofAndTheTextFormatDoesNot() {
        String open = new String(Fleets.satisfied().exposition(MetricsFormat.OPENMETRICS), StandardCharsets.UTF_8);
        String text = new String(Fleets.satisfied().exposition(MetricsFormat.PROMETHEUS), StandardCharsets.UTF_8);
        assertTrue(open.endsWith("# EOF\n"));
        assertFalse(text.contains("# EOF"));
        assertEquals("application/openmetrics-text; version=1.0.0; charset=utf-8",
                MetricsFormat.OPENMETRICS.contentType());
        assertEquals("text/plain; version=0.0.4; charset=utf-8", MetricsFormat.PROMETHEUS.contentType());
    }

    @Test
    void theAcceptHeaderChoosesOpenMetricsOnlyWhenItAsksForIt() {
        assertEquals(MetricsFormat.PROMETHEUS, MetricsFormat.forAccept(null));
        assertEquals(MetricsFormat.PROMETHEUS, MetricsFormat.forAccept(""));
        assertEquals(MetricsFormat.PROMETHEUS, MetricsFormat.forAccept("text/plain;version=0.0.4"));
        assertEquals(MetricsFormat.PROMETHEUS, MetricsFormat.forAccept("*/*"));
        assertEquals(MetricsFormat.OPENMETRICS, MetricsFormat.forAccept("application/openmetrics-text"));
        // What Prometheus itself sends by default.
        assertEquals(MetricsFormat.OPENMETRICS, MetricsFormat.forAccept("application/openmetrics-text;version=1.0.0,"
                + "application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"));
    }

    /** Weighed as HTTP weighs them: a scraper that refuses OpenMetrics, or prefers the text, gets the text. */
    @Test
    void theAcceptHeadersWeightsAreKept() {
        assertEquals(MetricsFormat.PROMETHEUS, MetricsFormat.forAccept("application/openmetrics-text;q=0"));
        assertEquals(MetricsFormat.PROMETHEUS, MetricsFormat.forAccept("application/openmetrics-text; q=0.0, */*"));
        assertEquals(MetricsFormat.PROMETHEUS, MetricsFormat.forAccept("application/openmetrics-text;q=0.5,text/plain"));
        assertEquals(MetricsFormat.PROMETHEUS, MetricsFormat.forAccept("text/openmetrics-textual, text/plain"));
        assertEquals(MetricsFormat.OPENMETRICS, MetricsFormat.forAccept("text/plain;q=0.3, Application/OpenMetrics-Text"));
        assertEquals(MetricsFormat.OPENMETRICS, MetricsFormat.forAccept("text/plain, application/openmetrics-text"));
        assertEquals(MetricsFormat.OPENMETRICS, MetricsFormat.forAccept("application/openmetrics-text;q=oops"));
        // The most specific range names each type's weight: here text/plain's is 0.2, not */*'s 1.
        assertEquals(MetricsFormat.OPENMETRICS, MetricsFormat.forAccept(
                "application/openmetrics-text;q=0.5, text/plain;q=0.2, */*"));
        assertEquals(MetricsFormat.OPENMETRICS, MetricsFormat.forAccept("application/*;q=0.9, text/plain;q=0.5"));
        assertEquals(MetricsFormat.PROMETHEUS, MetricsFormat.forAccept("application/openmetrics-text;q=-1, text/plain;q=0.1"));
        assertEquals(MetricsFormat.PROMETHEUS, MetricsFormat.forAccept("application/*, text/plain"));
        // Prometheus 3's default, protobuf first.
        assertEquals(MetricsFormat.OPENMETRICS, MetricsFormat.forAccept("application/vnd.google.protobuf;"
                + "proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.6,application/openmetrics-text;"
                + "version=1.0.0;escaping=allow-utf-8;q=0.5,application/openmetrics-text;version=0.0.1;q=0.4,"
                + "text/plain;version=1.0.0;escaping=allow-utf-8;q=0.3,text/plain;version=0.0.4;q=0.2,*/*;q=0.1"));
    }

    /** Every pid, runtime id and the digest the verdict names: none may become a label value. */
    private static Set<String> identifiers(Verdict verdict) {
        Set<String> ids = new HashSet<>();
        ids.add(verdict.verdictDigest());
        ids.add(verdict.verdictDigest().substring("sha256:".length()));
        Stream.of(verdict.members().stream().flatMap(report -> report.instances().stream()),
                        verdict.unexpectedMembers().stream().map(FlaggedRegistration::instance),
                        verdict.staleRegistrations().stream().map(FlaggedRegistration::instance),
                        verdict.unverifiedRegistrations().stream().map(FlaggedRegistration::instance))
                .flatMap(instances -> instances)
                .forEach(instance -> {
                    ids.add(instance.runtimeId());
                    ids.add(String.valueOf(instance.pid()));
                });
        verdict.malformedRegistrations().forEach(row -> ids.add(row.runtimeId()));
        verdict.unregisteredProcesses().forEach(process -> ids.add(String.valueOf(process.pid())));
        return ids;
    }

    private static Set<String> codes(Code[] codes) {
        return Arrays.stream(codes).map(Code::code).collect(Collectors.toSet());
    }

    private static Map<String, GaugeSnapshot> families(Fleets.Fleet fleet) {
        MetricSnapshots snapshots = fleet.metrics();
        Map<String, GaugeSnapshot> families = new HashMap<>();
        for (MetricSnapshot family : snapshots) {
            families.put(family.getMetadata().getPrometheusName(), (GaugeSnapshot) family);
        }
        return families;
    }

    private static double value(Map<String, GaugeSnapshot> families, String name) {
        List<GaugeSnapshot.GaugeDataPointSnapshot> points = families.get(name).getDataPoints();
        assertEquals(1, points.size(), name);
        return points.get(0).getValue();
    }

    private static Map<String, Double> byLabel(GaugeSnapshot family, String label) {
        return family.getDataPoints().stream().collect(Collectors.toMap(point -> point.getLabels().get(label),
                GaugeSnapshot.GaugeDataPointSnapshot::getValue));
    }
}
