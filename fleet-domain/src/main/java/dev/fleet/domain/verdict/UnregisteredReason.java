package dev.fleet.domain.verdict;

import dev.fleet.domain.ReasonCode;

/** Why a server-looking process has no live registration. */
public enum UnregisteredReason implements ReasonCode {
    REGISTRATION_STOPPED("The row for this pid says stopped, yet a server process runs on it: stop the process or "
            + "restart it through the official entrypoint so it registers."),
    NO_REGISTRATION("Nothing registered this process: find who started it, then stop it or restart it through the "
            + "official entrypoint so it registers.");

    private final String action;

    UnregisteredReason(String action) {
        this.action = action;
    }

    @Override
    public String action() {
        return action;
    }
}
