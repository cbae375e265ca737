package dev.fleet.domain.verdict;

import dev.fleet.domain.ReasonCode;

/** Why a server-looking process has no live registration. */
public enum UnregisteredReason implements ReasonCode {
    REGISTRATION_STOPPED("registration_stopped",
            "The row for this pid says stopped, yet a server process runs on it: stop the process or restart it "
                    + "through the official entrypoint so it registers."),
    NO_REGISTRATION("no_registration",
            "Nothing registered this process: find who started it, then stop it or restart it through the "
                    + "official entrypoint so it registers.");

    private final String code;
    private final String action;

    UnregisteredReason(String code, String action) {
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
