package dev.fleet.domain.verdict;

import dev.fleet.domain.ReasonCode;

/** Why a server-looking process has no live registration. */
public enum UnregisteredReason implements ReasonCode {
    REGISTRATION_STOPPED,
    NO_REGISTRATION;

    @Override
    public String action() {
        return switch (this) {
            case REGISTRATION_STOPPED -> "The row for this pid says stopped, yet a server process runs on it: stop the "
                    + "process or restart it through the official entrypoint so it registers.";
            case NO_REGISTRATION -> "Nothing registered this process: find who started it, then stop it or restart "
                    + "it through the official entrypoint so it registers.";
        };
    }
}
