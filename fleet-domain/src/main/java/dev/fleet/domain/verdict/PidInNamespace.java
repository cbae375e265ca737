package dev.fleet.domain.verdict;

import java.util.Objects;

/**
 * A pid means one process only within one pid namespace ({@code namespace} null: unknown, taken as the
 * answerer's). A map key once per running row.
 *
 * <p>Its equals and hashCode are written out: a record's own are linked at their first call through
 * method handles, which a cold JVM interprets (10,000 rows: some 50 ms for this key alone; docs/PERFORMANCE.md,
 * "The classifier's per-row work"). PidInNamespaceTest holds them to every component.
 */
record PidInNamespace(long pid, String namespace) {

    @Override
    public boolean equals(Object other) {
        return other instanceof PidInNamespace key && key.pid == pid && Objects.equals(key.namespace, namespace);
    }

    @Override
    public int hashCode() {
        return 31 * Long.hashCode(pid) + Objects.hashCode(namespace);
    }
}
