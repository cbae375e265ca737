package dev.fleet.cli.demo;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fleet.domain.Printable;
import dev.fleet.cli.text.Table;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** A verdict as the demo received it from a member's tool: the JSON, read for a few facts. */
record DemoVerdict(String answeredBy, JsonNode json) {

    boolean gateSatisfied() {
        return json.path("mutation_gate_satisfied").asBoolean(false);
    }

    int runningMembers() {
        return json.path("running_member_count").asInt(-1);
    }

    String digest() {
        return json.path("verdict_digest").asText("");
    }

    List<String> codes() {
        List<String> codes = new ArrayList<>();
        json.path("blocked_reasons").forEach(reason -> codes.add(reason.path("code").asText()));
        return codes;
    }

    /** The pids the verdict names orphaned: instances whose client is gone. */
    List<Long> orphanPids() {
        List<Long> pids = new ArrayList<>();
        json.path("orphaned_instances").forEach(orphan -> pids.add(orphan.path("pid").asLong()));
        return pids;
    }

    void print(PrintWriter out) {
        out.printf("   %s answers: gate %s, %d running of %d expected, single_cohort %s, digest %s%n", answeredBy,
                gateSatisfied() ? "SATISFIED" : "NOT satisfied", runningMembers(),
                json.path("expected_member_count").asInt(), json.path("single_cohort").asText(),
                abbreviate(digest()));
        Table table = new Table("   MEMBER", "STATE", "PIDS", "COHORTS");
        for (JsonNode member : json.path("members")) {
            List<String> pids = new ArrayList<>();
            List<String> cohorts = new ArrayList<>();
            member.path("instances").forEach(instance -> {
                pids.add(instance.path("pid").asText()
                        + (orphanPids().contains(instance.path("pid").asLong()) ? "(orphan)" : ""));
                cohorts.add(instance.path("cohort_id").asText());
            });
            table.row("   " + member.path("namespace").asText(), member.path("state").asText(),
                    String.join(",", pids), String.join(",", cohorts));
        }
        out.print(table.render());
        for (JsonNode reason : json.path("blocked_reasons")) {
            out.printf("   ! %s: %s%n     action: %s%n", reason.path("code").asText(),
                    Printable.of(reason.path("detail").asText()),
                    reason.path("action").asText());
        }
    }

    /** A digest cut to its algorithm and first hex digits, for a line of the story. */
    static String abbreviate(String digest) {
        return digest.length() > 19 ? digest.substring(0, 19) + "..." : digest;
    }
}
