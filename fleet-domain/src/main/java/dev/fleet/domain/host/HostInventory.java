package dev.fleet.domain.host;

import java.util.Objects;

/**
 * One classified snapshot: the report, and the guarded stop script of all its strays ({@code --format
 * sh}), made from the same classification so the two never disagree.
 */
public record HostInventory(HostReport report, String stopScript) {

    public HostInventory {
        Objects.requireNonNull(report, "report");
        Objects.requireNonNull(stopScript, "stopScript");
    }
}
