package dev.fleet.domain.verdict;

import dev.fleet.domain.Registration;
import dev.fleet.domain.Roster;
import java.util.List;
import java.util.function.BiPredicate;

/**
 * The contract's rules for a live registration (docs/CONTRACT.md, "Live registrations"), listed here
 * once, in the order they are tried: the first that applies makes it an unexpected member, with its
 * reason; a live registration that none catches is an instance of its roster member.
 */
enum LiveRowRule {

    /** It serves another repository: any of remote, org and repo differs from the roster's. */
    BINDING_MISMATCH(UnexpectedReason.BINDING_MISMATCH,
            (registration, roster) -> !roster.binding().equals(registration.binding())),
    /** Its (namespace, profile, role) is no roster member. */
    NOT_IN_ROSTER(UnexpectedReason.NOT_IN_ROSTER,
            (registration, roster) -> !roster.members().contains(registration.identity()));

    private static final List<LiveRowRule> IN_ORDER = List.of(values());

    private final UnexpectedReason reason;
    private final BiPredicate<Registration, Roster> applies;

    LiveRowRule(UnexpectedReason reason, BiPredicate<Registration, Roster> applies) {
        this.reason = reason;
        this.applies = applies;
    }

    /** The first rule that applies to {@code registration}, or null when none does: it is an instance. */
    static LiveRowRule firstApplying(Registration registration, Roster roster) {
        for (LiveRowRule rule : IN_ORDER) {
            if (rule.applies.test(registration, roster)) {
                return rule;
            }
        }
        return null;
    }

    UnexpectedReason reason() {
        return reason;
    }
}
