package dev.fleet.dashboard;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The gate, the anomalies, the orphans and remote instances and the footer of the first verdict, as
 * the page's script draws them (dashboard.js: {@code renderGate}, {@code renderAnomalies},
 * {@code renderOrphansAndRemotes}, {@code renderFooter}), as HTML for the slots of index.html. Times
 * are UTC, named so: the script shows them in the browser's own zone.
 */
final class FirstVerdictHtml {

    private FirstVerdictHtml() {
    }

    /** Every slot but the members' cards and legend ({@link MemberCardsHtml}). */
    static Map<String, String> slots(Map<String, Object> v) {
        Map<String, String> slots = new HashMap<>();
        gate(v, slots);
        anomalies(v, slots);
        orphansAndRemotes(v, slots);
        footer(v, slots);
        return slots;
    }

    private static void gate(Map<String, Object> v, Map<String, String> slots) {
        boolean satisfied = Tree.isTrue(v, "mutation_gate_satisfied");
        slots.put("gate-state", satisfied ? "satisfied" : "blocked");
        slots.put("gate-title", satisfied ? "GATE SATISFIED" : "GATE NOT SATISFIED");
        List<Map<String, Object>> reasons = Tree.list(v, "blocked_reasons");
        slots.put("gate-reason", new Markup().text(reasons.isEmpty() ? "no blocked reason" : "blocked by "
                + reasons.get(0).get("code") + ": " + reasons.get(0).get("detail")).toString());
        slots.put("gate-counts", new Markup().text(v.get("running_member_count") + " running of "
                + v.get("expected_member_count") + " expected · inventory "
                + (Tree.isTrue(v, "inventory_complete") ? "complete" : "incomplete") + " · single cohort ")
                .outside(v.get("single_cohort")).text(" · single revision ").outside(v.get("single_revision"))
                .toString());
    }

    private static void anomalies(Map<String, Object> v, Map<String, String> slots) {
        List<Markup> items = new ArrayList<>();
        Tree.list(v, "blocked_reasons").forEach(r -> items.add(item(r.get("code"), new Markup().text(r.get("detail")),
                r.get("action"), true)));
        flagged(items, "unexpected", Tree.list(v, "unexpected_members"));
        flagged(items, "stale", Tree.list(v, "stale_registrations"));
        flagged(items, "unverified", Tree.list(v, "unverified_registrations"));
        Tree.list(v, "malformed_registrations").forEach(r -> items.add(item("malformed", new Markup()
                .text("runtime_id ").outside(r.get("runtime_id")).text(": " + r.get("reason")), null, false)));
        Tree.list(v, "unregistered_processes").forEach(p -> items.add(item("unregistered", new Markup()
                .text("pid " + p.get("pid") + ": " + p.get("reason") + " — ").outside(p.get("command_line")), null,
                false)));
        slots.put("anomaly-count", new Markup().text("(" + items.size() + ")").toString());
        slots.put("anomalies", list(items));
    }

    private static void flagged(List<Markup> items, String title, List<Map<String, Object>> entries) {
        entries.forEach(e -> items.add(item(title, new Markup().outside(Tree.name(e)).text(" pid " + e.get("pid")
                + ": " + e.get("reason") + " (cohort ").outside(e.get("cohort_id")).text(", revision ")
                .outside(e.get("startup_head")).text(", client ").outside(e.get("client_provenance")).text(")"), null,
                false)));
    }

    private static Markup item(Object code, Markup detail, Object action, boolean blocking) {
        Markup item = new Markup().open("li", null, "data-blocking", String.valueOf(blocking), "data-code",
                String.valueOf(code)).element("span", "code", code).text(" ").append(detail);
        if (action != null && !"".equals(action)) {
            item.element("div", "action", "→ " + action);
        }
        return item.close("li");
    }

    private static void orphansAndRemotes(Map<String, Object> v, Map<String, String> slots) {
        List<Markup> orphans = new ArrayList<>();
        Tree.list(v, "orphaned_instances").forEach(o -> orphans.add(new Markup().open("li", null)
                .outside(Tree.name(o)).text(" pid " + o.get("pid") + ": client pid " + o.get("parent_pid")
                        + " is gone (started ").outside(Tree.utcTime(o.get("parent_started_at"))).text(" UTC)")
                .close("li")));
        slots.put("orphan-count", new Markup().text("(" + orphans.size() + ")").toString());
        slots.put("orphans", list(orphans));
        List<Markup> remotes = new ArrayList<>();
        Tree.list(v, "remote_instances").forEach(r -> remotes.add(new Markup().open("li", null)
                .outside(Tree.name(r)).text(" pid " + r.get("pid") + " on host ").outside(r.get("host_id"))
                .text(" (cohort ").outside(r.get("cohort_id")).text(", revision ").outside(r.get("startup_head"))
                .text(")").close("li")));
        slots.put("remote-count", new Markup().text("(" + remotes.size() + ")").toString());
        slots.put("remotes", list(remotes));
    }

    /** The items, or "none" when there is none. */
    private static String list(List<Markup> items) {
        Markup html = new Markup();
        items.forEach(html::append);
        return items.isEmpty() ? new Markup().element("li", "empty", "none").toString() : html.toString();
    }

    private static void footer(Map<String, Object> v, Map<String, String> slots) {
        Map<String, Object> o = Tree.map(v, "observation");
        slots.put("digest", new Markup().text(v.get("verdict_digest")).toString());
        slots.put("observed", new Markup().outside(Tree.utcTime(o.get("observed_at"))).text(" UTC").toString());
        Map<String, Object> answeredBy = Tree.map(o, "answered_by");
        slots.put("observer", new Markup().outside(o.get("hostname"))
                .text(answeredBy == null ? "" : " (pid " + answeredBy.get("pid") + ")").toString());
        Map<String, Object> registry = Tree.map(v, "registry");
        Markup registryShown = new Markup().outside(o.get("registry_path")).text(": ");
        slots.put("registry", (Tree.isTrue(registry, "readable")
                ? registryShown.text("readable, " + registry.get("registration_count") + " rows")
                : registryShown.text("unreadable (").outside(registry.get("reason")).text(")")).toString());
        Map<String, Object> listing = Tree.map(v, "process_listing");
        slots.put("listing", (Tree.isTrue(listing, "available")
                ? new Markup().text(listing.get("server_process_count") + " server processes")
                : new Markup().text("unavailable (").outside(listing.get("reason")).text(")")).toString());
    }
}
