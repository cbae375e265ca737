package dev.fleet.domain;

/** One expected fleet member. In a roster every field is non-blank; as a row's identity a field may be null. */
public record RosterMember(String namespace, String profile, String role) {
}
