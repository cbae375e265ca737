package dev.fleet.domain.verdict;

import java.util.Collection;
import java.util.List;

/**
 * Where a step decides one of a few kinds for each value (a sealed type), the values of one kind, in
 * the order they came: so a step can return each kind as a list without filling lists as it goes.
 */
final class Kinds {

    private Kinds() {
    }

    /** The values of {@code values} that are of {@code kind}, in their order. */
    static <T> List<T> only(Collection<?> values, Class<T> kind) {
        return values.stream().filter(kind::isInstance).map(kind::cast).toList();
    }
}
