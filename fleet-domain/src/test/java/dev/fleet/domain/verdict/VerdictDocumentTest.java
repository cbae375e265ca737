package dev.fleet.domain.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Scenario;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VerdictDocumentTest {

    @Test
    void theDocumentHasSpecSectionSixFieldsInOrder() {
        Map<String, Object> tree = VerdictDocument.toTree(Scenario.healthyFive().classify());
        assertEquals(List.of("inventory_complete", "mutation_gate_satisfied", "blocked_reason", "blocked_reasons",
                "expected_member_count", "running_member_count", "members", "missing_members", "duplicate_members",
                "unexpected_members", "stale_registrations", "unverified_registrations", "malformed_registrations",
                "unregistered_processes", "single_cohort", "cohort_ids", "single_revision", "startup_heads",
                "registry", "process_listing", "verdict_digest", "observation"), new ArrayList<>(tree.keySet()));
        @SuppressWarnings("unchecked")
        Map<String, Object> member = (Map<String, Object>) ((List<Object>) tree.get("members")).get(0);
        @SuppressWarnings("unchecked")
        Map<String, Object> instance = (Map<String, Object>) ((List<Object>) member.get("instances")).get(0);
        assertEquals(List.of("runtime_id", "namespace", "profile", "role", "pid", "cohort_id", "cohort_source",
                "startup_head", "transport", "client_provenance", "registered_at", "last_heartbeat_at",
                "process_started_at", "recorded_process_started_at"), new ArrayList<>(instance.keySet()));
        assertEquals("2026-07-28T02:00:00.250Z", instance.get("registered_at"));
        @SuppressWarnings("unchecked")
        Map<String, Object> observation = (Map<String, Object>) tree.get("observation");
        assertEquals(List.of("observed_at", "boot_id", "hostname", "registry_path", "answered_by"),
                new ArrayList<>(observation.keySet()));
    }

    @Test
    void theDigestIsShaOfTheCanonicalEncodingWithoutObservation() throws Exception {
        Verdict verdict = Scenario.healthyFive().classify();
        Map<String, Object> tree = new LinkedHashMap<>(VerdictDocument.toTree(verdict));
        tree.remove("observation");
        tree.remove("verdict_digest");
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
    void canonicalJsonEscapesOnlyWhatJsonRequires() {
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("b", "quote\" slash\\ tab\t nl\n é");
        tree.put("a", List.of(1, 2L, true, false));
        tree.put("n", null);
        assertEquals("{\"b\":\"quote\\\" slash\\\\ tab\\u0009 nl\\u000a é\",\"a\":[1,2,true,false],\"n\":null}",
                CanonicalJson.encode(tree));
    }
}
