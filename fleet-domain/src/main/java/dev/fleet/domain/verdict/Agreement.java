package dev.fleet.domain.verdict;

import dev.fleet.domain.Text;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Whether the fleet's instances agree on one value (a cohort, a revision), and {@code values}, the
 * distinct known values, without surrounding spaces, sorted. A value holding U+FFFD is not known: that character is what bytes
 * that were not text become on their way in (an environment or a registry column decoded as UTF-8,
 * or as the locale's charset), so two different cohorts could read as one; it fails closed as a
 * missing value does.
 */
public record Agreement(Single single, List<String> values) {

    /** What a decoder puts for bytes that are not text in its charset. */
    private static final char REPLACEMENT = '\uFFFD';

    /** No instance, nothing to agree on. */
    static final Agreement NONE = new Agreement(Single.UNKNOWN, List.of());

    /** Whether there is a single value. */
    public enum Single {
        /** Every value is known and all are equal. */
        AGREE,
        /** Every value is known, and they differ. */
        SPLIT,
        /** Some instance's value is unknown, or there is no instance. */
        UNKNOWN;

        /** As the contract shows it ({@code single_cohort}, {@code single_revision}): true, false or null. */
        public Boolean shown() {
            return this == UNKNOWN ? null : this == AGREE;
        }
    }

    /** Whether every instance knows the value and all agree on it; matching revisions never make a cohort. */
    static Agreement of(List<Instance> instances, Function<Instance, String> value) {
        if (instances.isEmpty()) {
            return NONE;
        }
        // Compared and shown without surrounding spaces (CONTRACT): "c1\n" from another tool is c1.
        List<String> known = instances.stream().map(value).filter(Agreement::known).map(Text::strip)
                .distinct().sorted().toList();
        Single single = !unknown(instances, value).isEmpty() ? Single.UNKNOWN
                : known.size() == 1 ? Single.AGREE : Single.SPLIT;
        return new Agreement(single, known);
    }

    /** The instances that do not know the value. */
    static List<Instance> unknown(List<Instance> instances, Function<Instance, String> value) {
        return instances.stream().filter(instance -> !known(value.apply(instance))).toList();
    }

    /** Present, not blank, and not bytes decoded as text that they were not. */
    private static boolean known(String text) {
        return !Text.isBlank(text) && !notText(text);
    }

    /** Whether {@code value} was there but held bytes that were not text (so it is not known). */
    static boolean notText(String value) {
        return value != null && value.indexOf(REPLACEMENT) >= 0;
    }

    public Agreement {
        Objects.requireNonNull(single, "single");
        values = List.copyOf(values);
    }
}
