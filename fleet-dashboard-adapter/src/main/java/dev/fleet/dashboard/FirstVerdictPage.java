package dev.fleet.dashboard;

import dev.fleet.domain.Roster;
import dev.fleet.domain.verdict.Verdict;
import dev.fleet.domain.verdict.VerdictDocument;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The page ({@code GET /}) with the latest verdict already drawn in it, so that a browser shows the
 * fleet before its script has run (a screenshot taken at once, a browser without JavaScript); the
 * script draws every verdict after it, the first included, in the same places. Each {@code {{slot}}}
 * of index.html is filled in one pass, so nothing a verdict holds is ever read as a slot.
 */
final class FirstVerdictPage {

    private static final Pattern SLOT = Pattern.compile("\\{\\{([a-z-]+)\\}\\}");
    /** What the page shows until the first verdict: the words it was written with. */
    private static final Map<String, String> WAITING = Map.of("gate-state", "unknown",
            "gate-title", "waiting for the first verdict…",
            "digest", "—", "observed", "—", "observer", "—", "registry", "—", "listing", "—");

    private final String template;
    private final List<String> rosterOrder;

    /** @param template index.html, with its slots */
    FirstVerdictPage(byte[] template, Roster roster) {
        this.template = new String(template, StandardCharsets.UTF_8);
        this.rosterOrder = roster.members().stream().map(member -> member.namespace() + "\0" + member.profile())
                .toList();
    }

    /** The page showing {@code verdict}, or waiting for one when it is null. */
    byte[] render(Verdict verdict) {
        Map<String, String> slots = verdict == null ? WAITING : slots(VerdictDocument.toTree(verdict));
        Matcher slot = SLOT.matcher(template);
        StringBuilder page = new StringBuilder(template.length() * 2);
        while (slot.find()) {
            slot.appendReplacement(page, Matcher.quoteReplacement(slots.getOrDefault(slot.group(1), "")));
        }
        return slot.appendTail(page).toString().getBytes(StandardCharsets.UTF_8);
    }

    private Map<String, String> slots(Map<String, Object> verdict) {
        Map<String, String> slots = new HashMap<>(FirstVerdictHtml.slots(verdict));
        slots.put("members", MemberCardsHtml.cards(verdict, rosterOrder));
        slots.put("cohort-legend", MemberCardsHtml.legend(verdict));
        return slots;
    }
}
