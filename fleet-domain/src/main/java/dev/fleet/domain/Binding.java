package dev.fleet.domain;

/** The repository a fleet serves: {@code (remote, org, repo)}. Fields may be null when read from a row. */
public record Binding(String remote, String org, String repo) {

    /** The binding of the contract's embedded default roster. */
    public static final Binding DEFAULT = new Binding("prgs", "Scaled-Tech-Consulting", "Gitea-Tools");
}
