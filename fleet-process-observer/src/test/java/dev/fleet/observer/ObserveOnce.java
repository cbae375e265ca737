package dev.fleet.observer;

import dev.fleet.domain.ProcessObservation;
import dev.fleet.domain.Roster;
import java.util.Set;

/**
 * Observes this host's {@code /proc} once and prints {@code available=... reason=...}: run by
 * {@link HidepidMountTest} as another user inside a mount namespace with its own {@code /proc}.
 */
public final class ObserveOnce {

    private ObserveOnce() {
    }

    public static void main(String[] args) {
        long registered = Long.parseLong(args[0]);
        ProcessObservation observation = new ProcfsProcessObserver()
                .observe(Roster.DEFAULT_SERVER_PROCESS_PATTERNS, Set.of(registered));
        boolean seen = observation.processes().stream().anyMatch(process -> process.pid() == registered);
        System.out.println("available=" + (observation instanceof ProcessObservation.Available) + " reason="
                + (observation instanceof ProcessObservation.Unavailable unavailable ? unavailable.reason().code() : null)
                + " seen=" + seen);
    }
}
