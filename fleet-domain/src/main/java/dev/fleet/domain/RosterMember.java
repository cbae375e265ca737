package dev.fleet.domain;

import java.util.Objects;

/** One expected fleet member. In a roster every field is non-blank; as a row's identity a field may be null. */
public record RosterMember(String namespace, String profile, String role) {

    // equals and hashCode written out, as a record's own would be: those are linked at their first call
    // by spinning method-handle classes, which every assessment (members are map keys) paid cold: part of
    // 49 -> 13 classes spun by a cold assess (docs/PERFORMANCE.md, "What a cold JVM links").
    // HandWrittenRecordMethodsTest holds them to every component.

    @Override
    public boolean equals(Object other) {
        return other instanceof RosterMember that && Objects.equals(that.namespace, namespace)
                && Objects.equals(that.profile, profile) && Objects.equals(that.role, role);
    }

    @Override
    public int hashCode() {
        return Objects.hash(namespace, profile, role);
    }
}
