package dev.fleet.domain.verdict;

/** A roster member's state: exactly one instance, none, or more than one. */
public enum MemberState {
    RUNNING("running"),
    MISSING("missing"),
    DUPLICATE("duplicate");

    private final String code;

    MemberState(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }

    static MemberState of(int instanceCount) {
        return instanceCount == 0 ? MISSING : instanceCount == 1 ? RUNNING : DUPLICATE;
    }
}
