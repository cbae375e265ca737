package dev.fleet.domain.verdict;

import java.util.List;

/**
 * Whether the fleet's instances agree on one value (a cohort, a revision): {@code single} is true
 * when every value is known and equal, false when known and different, null when any is unknown or
 * there is no instance; {@code values} are the distinct known values, sorted.
 */
public record Agreement(Boolean single, List<String> values) {

    /** No instance, nothing to agree on. */
    static final Agreement NONE = new Agreement(null, List.of());

    public Agreement {
        values = List.copyOf(values);
    }
}
