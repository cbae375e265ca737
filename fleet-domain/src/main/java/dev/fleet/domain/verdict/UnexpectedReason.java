package dev.fleet.domain.verdict;

import dev.fleet.domain.ReasonCode;

/** Why a live registration is not an instance of any roster member. */
public enum UnexpectedReason implements ReasonCode {
    BINDING_MISMATCH,
    NOT_IN_ROSTER;

    @Override
    public String action() {
        return switch (this) {
            case BINDING_MISMATCH -> "Stop this server: it serves another repository than the roster's binding.";
            case NOT_IN_ROSTER -> "Stop this server, or add its (namespace, profile, role) to the roster if it "
                    + "belongs to the fleet.";
        };
    }
}
