package dev.fleet.domain;

/** Where a server's cohort id came from; the code is the registry's {@code cohort_source} column. */
public enum CohortSource implements Code {
    /** Named by {@code GITEA_MCP_COHORT_ID}. */
    ENV,
    /** Derived from the launching client's pid ({@code --cohort-from-parent}). */
    PARENT_PROCESS,
    /** Nothing named it. */
    UNKNOWN
}
