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

    /** A row with its {@code registered_at} parsed once, not again at every comparison of the sort. */
    private record Keyed(Instant registered, RegistryRow row) {
    }

    /** Written out rather than chained: a chain costs a call per link and comparison, which a cold JVM interprets. */
    private static final Comparator<Keyed> LISTING = RowOrder::compare;

    private RowOrder() {
    }

    private static int compare(Keyed a, Keyed b) {
        int order = nullsLast(a.registered(), b.registered());
        if (order == 0) {
            order = nullsLast(a.row().runtimeId(), b.row().runtimeId());
        }
        return order != 0 ? order : nullsFirst(a.row().registeredAt(), b.row().registeredAt());
    }

    private static int nullsFirst(String a, String b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
        }
        return a.compareTo(b);
    }

    /** Natural order, null after every value. */
    private static <T extends Comparable<T>> int nullsLast(T a, T b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : 1) : -1;
        }
        return a.compareTo(b);
    }

    static List<RegistryRow> sorted(List<RegistryRow> rows) {
        List<Keyed> keyed = new ArrayList<>(rows.size());
        for (RegistryRow row : rows) {
            keyed.add(new Keyed(Timestamps.parse(row.registeredAt()).orElse(null), row));
        }
        keyed.sort(LISTING);
        List<RegistryRow> sorted = new ArrayList<>(keyed.size());
        for (Keyed row : keyed) {
            sorted.add(row.row());
        }
        return sorted;
    }
}
