package dev.fleet.domain.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Scenario;
import dev.fleet.domain.verdict.encoding.CanonicalJson;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VerdictDocumentTest {

    @Test
    void theDocumentHasTheContractsFieldsInOrder() {
        Map<String, Object> tree = VerdictDocument.toTree(Scenario.healthyFive().classify());
        assertEquals(List.of("inventory_complete", "mutation_gate_satisfied", "blocked_reason", "blocked_reasons",
                "expected_member_count", "running_member_count", "members", "missing_members", "duplicate_members",
                "unexpected_members", "stale_registrations", "unverified_registrations", "malformed_registrations",
                "orphaned_instances", "remote_instances", "unregistered_processes", "single_cohort", "cohort_ids",
                "single_revision", "startup_heads",
                "registry", "process_listing", "omitted_entries", "verdict_digest", "observation"), new ArrayList<>(tree.keySet()));
        @SuppressWarnings("unchecked")
        Map<String, Object> member = (Map<String, Object>) ((List<Object>) tree.get("members")).get(0);
        @SuppressWarnings("unchecked")
        Map<String, Object> instance = (Map<String, Object>) ((List<Object>) member.get("instances")).get(0);
        assertEquals(List.of("runtime_id", "namespace", "profile", "role", "pid", "cohort_id", "cohort_source",
                "startup_head", "transport", "client_provenance", "registered_at", "last_heartbeat_at",
                "process_started_at", "recorded_process_started_at", "server_pid", "server_command", "served_pids"),
                new ArrayList<>(instance.keySet()));
        assertEquals("2026-07-28T02:00:00.250Z", instance.get("registered_at"));
        @SuppressWarnings("unchecked")
        Map<String, Object> observation = (Map<String, Object>) tree.get("observation");
        assertEquals(List.of("observed_at", "boot_id", "hostname", "host_id", "pid_namespace", "registry_path",
                        "answered_by"),
                new ArrayList<>(observation.keySet()));
    }

    /** A tool call's two renderings come from one tree, and are each what the single renderings give. */
    @Test
    void theRenderedDocumentIsTheTreeAndItsCanonicalJson() {
        Verdict verdict = Scenario.healthyFive().row(RowBuilder.row(Scenario.member("author"), 9100)).classify();
        VerdictDocument.Rendered rendered = VerdictDocument.rendered(verdict);
        assertEquals(VerdictDocument.toTree(verdict), rendered.tree());
        assertEquals(VerdictDocument.canonicalJson(verdict), rendered.json());
        assertEquals(CanonicalJson.encode(rendered.tree()), rendered.json());
    }

    @Test
    void theDigestIsShaOfTheCanonicalEncodingWithoutObservationAndHeartbeats() throws Exception {
        Verdict verdict = Scenario.healthyFive().classify();
        Map<String, Object> tree = Digested.strip(VerdictDocument.toTree(verdict));
        assertEquals(false, CanonicalJson.encode(tree).contains("last_heartbeat_at"));
        byte[] hash = java.security.MessageDigest.getInstance("SHA-256")
                .digest(CanonicalJson.encode(tree).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertEquals("sha256:" + java.util.HexFormat.of().formatHex(hash), verdict.verdictDigest());
    }

    @Test
    void theDigestChangesWithTheFleetButNotWithTheObserver() {
        Scenario scenario = Scenario.healthyFive();
        String healthy = scenario.classify().verdictDigest();
        scenario.bootId = RowBuilder.BOOT.toUpperCase();
        assertEquals(healthy, scenario.classify().verdictDigest(), "boot id spelling is observation only");
        scenario.server(RowBuilder.row(Scenario.member("merger"), 8100));
        assertNotEquals(healthy, scenario.classify().verdictDigest());
    }

    @Test
    void everyStringFromOutsideIsCappedWithItsLengthBeforeDigesting() {
        String argv = "java -jar /opt/fleet/fleet.jar serve --profile x " + "A".repeat(1_700_000);
        String cohort = "c".repeat(5_000);
        Scenario scenario = Scenario.healthyFive();
        scenario.rows.replaceAll(row -> RowBuilder.from(row).with(r -> r.cohortId = cohort).build());
        scenario.process(9_001, Scenario.STARTED, argv);
        Verdict verdict = scenario.classify();
        String json = CanonicalJson.encode(VerdictDocument.toTree(verdict));

        String cappedArgv = argv.substring(0, OutsideText.MAX_CHARS) + "…[truncated, " + argv.length() + " chars]";
        assertEquals(true, json.contains("\"command_line\":\"" + cappedArgv + "\""), "capped command line");
        String cappedCohort = "c".repeat(OutsideText.MAX_CHARS) + "…[truncated, 5000 chars]";
        assertEquals(true, json.contains("\"cohort_id\":\"" + cappedCohort + "\""), "capped cohort id");
        assertEquals(true, json.length() < 100_000, "the answer stays small: " + json.length());
        assertEquals(Boolean.TRUE, verdict.singleCohort());
    }

    @Test
    void theCapNeverMergesValuesThatDifferPastIt() {
        String prefix = "c".repeat(OutsideText.MAX_CHARS);
        Scenario scenario = Scenario.healthyFive();
        int[] index = {0};
        scenario.rows.replaceAll(row -> RowBuilder.from(row).with(r -> r.cohortId = prefix + (index[0]++ == 0 ? "1" : "2"))
                .build());
        Verdict verdict = scenario.classify();
        assertEquals(Boolean.FALSE, verdict.singleCohort(), "compared whole, capped only when shown");
        assertEquals(BlockedCode.COHORT_SPLIT, verdict.blockedReason());
    }

    @Test
    void aShortStringIsKeptWhole() {
        String exact = "é".repeat(OutsideText.MAX_CHARS);
        assertEquals(exact, OutsideText.cap(exact));
        assertEquals(null, OutsideText.cap(null));
        String surrogates = "😀".repeat(OutsideText.MAX_CHARS + 1);
        assertEquals("😀".repeat(OutsideText.MAX_CHARS) + "…[truncated, " + (OutsideText.MAX_CHARS + 1) + " chars]",
                OutsideText.cap(surrogates), "counted in characters, never splitting one");
    }

    /** A text stored capped (a wrapped server's command) keeps its original length when shown again. */
    @Test
    void cappingACappedTextChangesNothing() {
        String capped = OutsideText.cap("x".repeat(9_000));
        assertEquals("x".repeat(OutsideText.MAX_CHARS) + "…[truncated, 9000 chars]", capped);
        assertEquals(capped, OutsideText.cap(capped));
        String lookalike = "x".repeat(OutsideText.MAX_CHARS) + "…[truncated, many chars]";
        assertEquals("x".repeat(OutsideText.MAX_CHARS) + "…[truncated, " + (OutsideText.MAX_CHARS + 24) + " chars]",
                OutsideText.cap(lookalike), "only the cap's own suffix is kept");
    }

    @Test
    void canonicalJsonEscapesOnlyWhatJsonRequires() {
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("b", "quote\" slash\\ tab\t nl\n é");
        tree.put("a", List.of(1, 2L, true, false));
        tree.put("n", null);
        assertEquals("{\"b\":\"quote\\\" slash\\\\ tab\\u0009 nl\\u000a é\",\"a\":[1,2,true,false],\"n\":null}",
                CanonicalJson.encode(tree));
    }
}
