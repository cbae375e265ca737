package dev.fleet.domain.verdict;

import dev.fleet.domain.ReasonCode;

/** Why a live registration is not an instance of any roster member. */
public enum UnexpectedReason implements ReasonCode {
    BINDING_MISMATCH("binding_mismatch",
            "Stop this server: it serves another repository than the roster's binding."),
    NOT_IN_ROSTER("not_in_roster",
            "Stop this server, or add its (namespace, profile, role) to the roster if it belongs to the fleet.");

    private final String code;
    private final String action;

    UnexpectedReason(String code, String action) {
        this.code = code;
        this.action = action;
    }

    @Override
    public String code() {
        return code;
    }

    @Override
    public String action() {
        return action;
    }
}
