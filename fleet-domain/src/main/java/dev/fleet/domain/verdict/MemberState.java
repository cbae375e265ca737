package dev.fleet.domain.verdict;

import dev.fleet.domain.Code;
/** A roster member's state: exactly one instance, none, or more than one. */
public enum MemberState implements Code {
    RUNNING,
    MISSING,
    DUPLICATE;

    static MemberState of(int instanceCount) {
        return instanceCount == 0 ? MISSING : instanceCount == 1 ? RUNNING : DUPLICATE;
    }
}
