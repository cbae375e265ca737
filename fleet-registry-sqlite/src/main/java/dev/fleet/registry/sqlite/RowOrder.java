package dev.fleet.registry.sqlite;

import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Timestamps;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The listing order: by {@code registered_at}, then {@code runtime_id}. SQL sorts the text, which
 * is the instant order only while every writer uses one format; other tools write whole seconds or
 * {@code +00:00}, so the rows are re-sorted by the parsed instant (unparseable last). The sort is
 * stable, so rows the comparator ties keep SQL's deterministic order.
 */
final class RowOrder {

    static final Comparator<RegistryRow> LISTING = Comparator
            .comparing((RegistryRow row) -> instantOrNull(row.registeredAt()),
                    Comparator.nullsLast(Comparator.naturalOrder()))
            .thenComparing(RegistryRow::runtimeId, Comparator.nullsLast(Comparator.naturalOrder()));

    private RowOrder() {
    }

    static List<RegistryRow> sorted(List<RegistryRow> rows) {
        List<RegistryRow> sorted = new ArrayList<>(rows);
        sorted.sort(LISTING);
        return sorted;
    }

    private static Instant instantOrNull(String text) {
        return Timestamps.parse(text).orElse(null);
    }
}
