package dev.fleet.registry.sqlite;

import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Timestamps;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The listing order: by {@code registered_at} as an instant (other tools write whole seconds or
 * {@code +00:00}, so the text would not do; unparseable last), then {@code runtime_id}, then the
 * {@code registered_at} text. Sorted here, never in SQL: an endless view must not be sorted through
 * temporary files (ReadBounds). The sort is stable: rows equal in all three keep the table's order.
 */
final class RowOrder {

    static final Comparator<RegistryRow> LISTING = Comparator
            .comparing((RegistryRow row) -> instantOrNull(row.registeredAt()),
                    Comparator.nullsLast(Comparator.naturalOrder()))
            .thenComparing(RegistryRow::runtimeId, Comparator.nullsLast(Comparator.naturalOrder()))
            .thenComparing(RegistryRow::registeredAt, Comparator.nullsFirst(Comparator.naturalOrder()));

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
