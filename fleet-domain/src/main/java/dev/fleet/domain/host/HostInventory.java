package dev.fleet.domain.host;

import java.util.Objects;

/**
 * One classified snapshot: the report, and the guarded stop script of all its strays ({@code --format
 * sh}), made from the same classification so the two never disagree; and whether the process table could
 * be listed at all (when not, "no stray" means nothing: the report is empty for want of evidence).
 */
public record HostInventory(HostReport report, String stopScript, boolean processTableRead) {

    public HostInventory {
        Objects.requireNonNull(report, "report");
        Objects.requireNonNull(stopScript, "stopScript");
    }

    /** Whether no stray runs, as far as anyone can tell: none found, in a table that could be listed. */
    public boolean provesNoStray() {
        return processTableRead && report.strays() == 0;
    }
}
