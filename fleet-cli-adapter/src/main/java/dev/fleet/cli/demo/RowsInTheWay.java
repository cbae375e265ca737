package dev.fleet.cli.demo;

import dev.fleet.domain.Printable;
import dev.fleet.domain.Binding;
import dev.fleet.domain.Lease;
import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryReason;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What stands in the way of the demo's "many hosts" step on the database {@code FLEET_DEMO_POSTGRES} names:
 * a live row of the default binding (running, its last heartbeat within the default lease by the registry's
 * clock) is a member live elsewhere, so it would close the demo's own gates with {@code remote_member} and
 * the story could not show them open again. Each is named by the registry's columns, so the operator can
 * find it: {@code role}, {@code runtime_id}, {@code pid} and {@code host_id}.
 */
final class RowsInTheWay {

    private RowsInTheWay() {
    }

    /**
     * Why the step cannot be told on the registry {@code read}, or null when it can: the rows in the way, or
     * a registry that cannot be read (one without the table yet is fine: the servers create it).
     */
    static String problem(RegistryRead read, Binding binding, Instant answererNow) {
        if (read instanceof RegistryRead.Unreadable unreadable) {
            RegistryReason reason = unreadable.reason();
            // Missing with a detail: the database answered, without the table yet. Without one: no such database.
            return reason == RegistryReason.MISSING && unreadable.detail() != null ? null
                    : "registry unreadable: " + reason.code() + (reason.hasOwnAction() ? ". " + reason.action() : "");
        }
        List<String> rows = in(read, binding, answererNow);
        return rows.isEmpty() ? null : "in the way: " + String.join("; ", rows);
    }

    /** The live rows of {@code binding} in {@code read}, one description each, in the registry's order. */
    static List<String> in(RegistryRead read, Binding binding, Instant answererNow) {
        Instant now = read instanceof RegistryRead.Readable readable && readable.clock() != null
                ? readable.clock() : answererNow;
        return read.rows().stream().map(row -> row.interpret() instanceof Registration registration
                        ? registration : null).filter(Objects::nonNull)
                .filter(row -> row.isRunning() && binding.equals(row.binding()))
                .filter(row -> !Lease.DEFAULT.expired(row.tenure().lastHeartbeatAt(), now))
                .map(RowsInTheWay::describe).toList();
    }

    /** "role reconciler, runtime_id 57722812-…, pid 24364, host_id 3f9c…" (every value {@link Printable}). */
    static String describe(Registration row) {
        return "role " + Printable.of(row.role()) + ", runtime_id " + Printable.of(row.runtimeId()) + ", pid "
                + row.process().pid() + ", host_id "
                + (row.process().hostId() == null ? "unknown" : Printable.of(row.process().hostId()));
    }
}
