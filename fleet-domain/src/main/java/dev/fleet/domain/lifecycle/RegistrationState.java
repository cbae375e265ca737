package dev.fleet.domain.lifecycle;

import dev.fleet.domain.Registration;
import java.util.Objects;

/**
 * Where this server's own registration stands. {@code gitea_get_runtime_context} serves it, so an
 * operator can see why a server shows up as unregistered in a verdict.
 */
public sealed interface RegistrationState
        permits RegistrationState.Pending, RegistrationState.Registered, RegistrationState.Failed {

    /** {@code pending}, {@code registered} or {@code failed}. */
    String status();

    /** The runtime id of the current (or last attempted) registration, or null before any attempt. */
    String runtimeId();

    /** Not registered yet: the transport is not bound, or registration is in progress. */
    record Pending() implements RegistrationState {
        @Override
        public String status() {
            return "pending";
        }

        @Override
        public String runtimeId() {
            return null;
        }
    }

    /** The row the registry stored; its heartbeat is kept current. */
    record Registered(Registration registration) implements RegistrationState {
        public Registered {
            Objects.requireNonNull(registration, "registration");
        }

        @Override
        public String status() {
            return "registered";
        }

        @Override
        public String runtimeId() {
            return registration.runtimeId();
        }
    }

    /** The last attempt failed; the server keeps serving and retries on its next heartbeat. */
    record Failed(String runtimeId, String error) implements RegistrationState {
        public Failed {
            Objects.requireNonNull(error, "error");
        }

        @Override
        public String status() {
            return "failed";
        }
    }
}
