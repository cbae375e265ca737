package dev.fleet.domain;

import java.util.Objects;

/** The repository a fleet serves: {@code (remote, org, repo)}. Fields may be null when read from a row. */
public record Binding(String remote, String org, String repo) {

    /** The binding of the contract's embedded default roster. */
    public static final Binding DEFAULT = new Binding("prgs", "Scaled-Tech-Consulting", "Gitea-Tools");

    // equals and hashCode written out, as a record's own would be: those are linked at their first call
    // by spinning method-handle classes, which every assessment with a live row (compared to the roster's)
    // paid cold. With RosterMember's, Fingerprint's and Lease's: 49 -> 13 classes spun by a cold assess
    // (docs/PERFORMANCE.md, "What a cold JVM links"). HandWrittenRecordMethodsTest holds them to every component.

    @Override
    public boolean equals(Object other) {
        return other instanceof Binding that && Objects.equals(that.remote, remote) && Objects.equals(that.org, org)
                && Objects.equals(that.repo, repo);
    }

    @Override
    public int hashCode() {
        return Objects.hash(remote, org, repo);
    }
}
