package dev.fleet.dashboard;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The member cards of the first verdict and the legend of its cohorts, as the page's script draws
 * them (dashboard.js, {@code renderMembers}): in the roster's order, each instance's values on a line
 * of their own, under the pid the server it wraps (where the CLI shows {@code 4100(wraps 5100)}), and
 * each client cohort a letter and a colour, A for the first id in sort order.
 */
final class MemberCardsHtml {

    private MemberCardsHtml() {
    }

    /** A cohort's letter and the hue of its colour. */
    private record Label(String letter, String hue) {
    }

    /** The cards, the members in {@code rosterOrder} ({@link Tree#key} keys); others after them, as sorted. */
    static String cards(Map<String, Object> verdict, List<String> rosterOrder) {
        Map<String, Label> labels = labels(verdict);
        Object observed = Tree.value(Tree.map(verdict, "observation"), "observed_at");
        Markup html = new Markup();
        Tree.list(verdict, "members").stream()
                .sorted(Comparator.comparingInt(member -> rank(rosterOrder, Tree.key(member)))) // a stable sort
                .forEach(member -> card(html, member, labels, observed));
        return html.toString();
    }

    /** "cohorts", then each cohort's letter and its whole id: a card may have room for only the letter. */
    static String legend(Map<String, Object> verdict) {
        Markup html = new Markup();
        labels(verdict).forEach((id, label) -> html.text(" ").append(badge(label, id)).text(" ").outside(id));
        return html.isEmpty() ? "" : new Markup().text("cohorts").append(html).toString();
    }

    private static int rank(List<String> rosterOrder, String name) {
        int rank = rosterOrder.indexOf(name);
        return rank < 0 ? rosterOrder.size() : rank;
    }

    private static void card(Markup html, Map<String, Object> member, Map<String, Label> labels, Object observed) {
        html.open("article", "card", "data-state", String.valueOf(member.get("state")), "data-profile",
                String.valueOf(member.get("profile")));
        html.element("span", "state", member.get("state"))
                .open("div", "role").outside(member.get("role")).close("div")
                .open("div", "names").outside(member.get("namespace")).text(" · ").outside(member.get("profile"))
                .close("div");
        List<Map<String, Object>> instances = Tree.list(member, "instances");
        if (instances.isEmpty()) {
            html.element("div", "empty", "no instance");
        }
        for (Map<String, Object> instance : instances) {
            Object cohort = instance.get("cohort_id");
            Label label = cohort == null ? null : labels.get(cohort);
            html.open("dl", "instance", "data-hue", label == null ? "none" : label.hue());
            field(html, "pid", instance.get("pid"), instance.get("pid"), null);
            if (instance.get("server_pid") != null) {
                // Under its pid, as the CLI's member table shows it beside it; its command, masked, in the title.
                html.open("dt", null).text("wraps").close("dt");
                String command = Objects.toString(instance.get("server_command"), "");
                html.open("dd", null, "data-field", "wraps", "title", command).outside(instance.get("server_pid"))
                        .close("dd");
            }
            field(html, "cohort", cohort, cohort, badge(label, cohort));
            Object head = instance.get("startup_head");
            field(html, "revision", head, head instanceof String text && text.matches("[0-9a-f]{40,64}")
                    ? text.substring(0, 12) : head, null);
            field(html, "transport", instance.get("transport"), instance.get("transport"), null);
            Object since = instance.get("registered_at");
            html.open("dt", null).text("since").close("dt");
            html.open("dd", null, "data-field", "since", "title", Tree.utcTitle(since))
                    .outside(Tree.utcShort(since, observed)).close("dd");
            html.close("dl");
        }
        html.close("article");
    }

    /** A value on one line, cut with an ellipsis by the style and whole in its title; after {@code before}, if any. */
    private static void field(Markup html, String label, Object value, Object shown, Markup before) {
        html.open("dt", null).text(label).close("dt");
        html.open("dd", null, "data-field", label, "title", value == null ? "" : String.valueOf(value));
        if (before != null) {
            html.append(before).text(" ");
        }
        html.outside(shown).close("dd");
    }

    private static Markup badge(Label label, Object cohort) {
        return new Markup().open("span", "cohort", "data-hue", label == null ? "none" : label.hue(), "title",
                "cohort " + Objects.requireNonNullElse(cohort, "unknown")).text(label == null ? "?" : label.letter())
                .close("span");
    }

    /** Each cohort id of the members' instances, in sort order, with its letter and hue (the script's cohortLabels). */
    private static Map<String, Label> labels(Map<String, Object> verdict) {
        TreeSet<String> ids = new TreeSet<>();
        Tree.list(verdict, "members").forEach(member -> Tree.list(member, "instances").forEach(instance -> {
            if (instance.get("cohort_id") instanceof String id) {
                ids.add(id);
            }
        }));
        Map<String, Label> labels = new LinkedHashMap<>();
        int n = 0;
        for (String id : ids) {
            labels.put(id, new Label((char) ('A' + n % 26) + (n >= 26 ? String.valueOf(n / 26 + 1) : ""),
                    String.valueOf(n % 8)));
            n++;
        }
        return labels;
    }
}
