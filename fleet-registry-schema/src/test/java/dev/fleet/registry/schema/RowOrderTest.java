package dev.fleet.registry.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Timestamps;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * The listing order, written out in {@link RowOrder} for speed, is the order its documentation
 * states: {@code registered_at} as an instant (unparseable last), then {@code runtime_id} (null
 * last), then the {@code registered_at} text (null first), then every column's text (null last): total,
 * so the same rows list the same way whatever order the table holds them in.
 */
class RowOrderTest {

    /** The stated order as the JDK's comparator chain says it. */
    private static final Comparator<RegistryRow> STATED = stated();

    private static Comparator<RegistryRow> stated() {
        Comparator<RegistryRow> keys = Comparator
                .comparing((RegistryRow row) -> Timestamps.parse(row.registeredAt()).orElse(null),
                        Comparator.nullsLast(Comparator.naturalOrder()))
                .thenComparing(RegistryRow::runtimeId, Comparator.nullsLast(Comparator.naturalOrder()))
                .thenComparing(RegistryRow::registeredAt, Comparator.nullsFirst(Comparator.naturalOrder()));
        for (RegistryColumn column : RegistryColumn.ALL) {
            keys = keys.thenComparing(row -> Objects.toString(column.valueOf(row), null),
                    Comparator.nullsLast(Comparator.naturalOrder()));
        }
        return keys;
    }

    /** Forms other writers use for the same and for different instants, and ones that are no instant. */
    private static final List<String> REGISTERED = java.util.Arrays.asList(null, "2026-07-28T02:00:00Z",
            "2026-07-28T02:00:00.000Z", "2026-07-28T04:00:00+02:00", "2026-07-28T02:00:00.5Z", "2026-07-28T01:59:59Z",
            "2026-07-29T00:00:00Z", "yesterday", "", "2026-13-01T00:00:00Z");
    private static final List<String> RUNTIME_IDS = java.util.Arrays.asList(null, "a", "b", "B", "rt-1", "");

    @Test
    void theWrittenOutOrderIsTheStatedOne() {
        qt().forAll(lists().of(row()).ofSizeBetween(0, 40)).checkAssert(rows -> {
            List<RegistryRow> expected = new ArrayList<>(rows);
            expected.sort(STATED);
            assertEquals(expected, RowOrder.sorted(rows));
        });
    }

    @Test
    void theSameRowsListTheSameWayWhateverTheTablesOrder() {
        qt().forAll(lists().of(row()).ofSizeBetween(0, 40), longs().all()).checkAssert((rows, seed) -> {
            List<RegistryRow> shuffled = new ArrayList<>(rows);
            Collections.shuffle(shuffled, new Random(seed));
            assertEquals(RowOrder.sorted(rows), RowOrder.sorted(shuffled));
        });
    }

    private static Gen<RegistryRow> row() {
        return integers().between(0, REGISTERED.size() - 1).zip(integers().between(0, RUNTIME_IDS.size() - 1),
                integers().between(1, 3), (registered, id, pid) -> new RegistryRow(RUNTIME_IDS.get(id), "ns", "p",
                        "r", null, null, null, pid == 2 ? "/checkout" : null, (long) pid, null, "unknown", null, null,
                        null, null, null,
                        "running", REGISTERED.get(registered), "2026-07-28T02:00:00Z", null, null, null, null, null,
                        null));
    }
}
