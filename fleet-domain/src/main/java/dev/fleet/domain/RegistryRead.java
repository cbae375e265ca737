package dev.fleet.domain;

import java.util.List;
import java.util.Objects;

/** Everything read from the registry: every row (any status), or why nothing could be read. */
public record RegistryRead(boolean readable, RegistryReason reason, List<RegistryRow> rows) {

    public RegistryRead {
        if (readable == (reason != null)) {
            throw new IllegalArgumentException("a registry read has a reason exactly when it is unreadable");
        }
        rows = List.copyOf(Objects.requireNonNull(rows, "rows"));
        if (!readable && !rows.isEmpty()) {
            throw new IllegalArgumentException("an unreadable registry has no rows");
        }
    }

    public static RegistryRead of(List<RegistryRow> rows) {
        return new RegistryRead(true, null, rows);
    }

    public static RegistryRead unreadable(RegistryReason reason) {
        return new RegistryRead(false, Objects.requireNonNull(reason, "reason"), List.of());
    }
}
