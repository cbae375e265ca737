package dev.fleet.domain;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Everything read from the registry: every row (any status), or why nothing could be read. An
 * unreadable registry may carry a {@code detail} an operator can act on, such as the columns a
 * foreign table lacks; it is this program's own wording, never text taken from the file.
 */
public sealed interface RegistryRead permits RegistryRead.Readable, RegistryRead.Unreadable {

    /** Every row read, in the order read; none when the registry is unreadable. */
    List<RegistryRow> rows();

    default boolean readable() {
        return this instanceof Readable;
    }

    static RegistryRead of(List<RegistryRow> rows) {
        return new Readable(rows, null);
    }

    /** Rows read together with the registry's own clock at the read ({@code now()} on PostgreSQL). */
    static RegistryRead of(List<RegistryRow> rows, Instant clock) {
        return new Readable(rows, clock);
    }

    static RegistryRead unreadable(RegistryReason reason) {
        return new Unreadable(reason, null);
    }

    /** @param detail what exactly is wrong, e.g. {@code "lacks columns boot_id, stopped_at"}; null for none */
    static RegistryRead unreadable(RegistryReason reason, String detail) {
        return new Unreadable(reason, detail);
    }

    /**
     * The registry was read: these are its rows, any status; {@code clock} is the registry's own time
     * at the read, null when it keeps none (SQLite: the answerer's clock stands in).
     */
    record Readable(List<RegistryRow> rows, Instant clock) implements RegistryRead {
        public Readable {
            rows = List.copyOf(Objects.requireNonNull(rows, "rows"));
        }
    }

    /** Nothing could be read, for {@code reason}; {@code detail} says more, or is null. */
    record Unreadable(RegistryReason reason, String detail) implements RegistryRead {
        public Unreadable {
            Objects.requireNonNull(reason, "reason");
        }

        @Override
        public List<RegistryRow> rows() {
            return List.of();
        }
    }
}
