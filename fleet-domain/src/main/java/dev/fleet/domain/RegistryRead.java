package dev.fleet.domain;

import java.util.List;
import java.util.Objects;

/**
 * Everything read from the registry: every row (any status), or why nothing could be read. An
 * unreadable registry may carry a {@code detail} an operator can act on, such as the columns a
 * foreign table lacks; it is this program's own wording, never text taken from the file.
 */
public record RegistryRead(boolean readable, RegistryReason reason, String detail, List<RegistryRow> rows) {

    public RegistryRead {
        if (readable == (reason != null)) {
            throw new IllegalArgumentException("a registry read has a reason exactly when it is unreadable");
        }
        if (readable && detail != null) {
            throw new IllegalArgumentException("only an unreadable registry has a detail");
        }
        rows = List.copyOf(Objects.requireNonNull(rows, "rows"));
        if (!readable && !rows.isEmpty()) {
            throw new IllegalArgumentException("an unreadable registry has no rows");
        }
    }

    public static RegistryRead of(List<RegistryRow> rows) {
        return new RegistryRead(true, null, null, rows);
    }

    public static RegistryRead unreadable(RegistryReason reason) {
        return unreadable(reason, null);
    }

    /** @param detail what exactly is wrong, e.g. {@code "lacks columns boot_id, stopped_at"}; null for none */
    public static RegistryRead unreadable(RegistryReason reason, String detail) {
        return new RegistryRead(false, Objects.requireNonNull(reason, "reason"), detail, List.of());
    }
}
