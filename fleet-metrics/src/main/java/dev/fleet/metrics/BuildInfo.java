package dev.fleet.metrics;

import java.util.Objects;

/**
 * What {@code fleet_build_info} says: the version and the git commit the answering jar was built
 * from ({@code unknown} for what the build could not tell). The CLI reads them from its build.
 */
public record BuildInfo(String version, String commit) {

    public BuildInfo {
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(commit, "commit");
    }
}
