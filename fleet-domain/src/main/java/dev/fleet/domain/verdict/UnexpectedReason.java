package dev.fleet.domain.verdict;

import dev.fleet.domain.ReasonCode;

/** Why a live registration is not an instance of any roster member. */
public enum UnexpectedReason implements ReasonCode {
    BINDING_MISMATCH("Stop this server: it serves another repository than the roster's binding."),
    NOT_IN_ROSTER("Stop this server, or add its (namespace, profile, role) to the roster if it belongs to the fleet.");

    private final String action;

    UnexpectedReason(String action) {
        this.action = action;
    }

    @Override
    public String action() {
        return action;
    }
}
