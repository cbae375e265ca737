package dev.fleet.domain.lifecycle;

import dev.fleet.domain.Binding;
import dev.fleet.domain.ClientProvenance;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Scenario;
import dev.fleet.domain.Transport;

/** A server's identity for tests: the default controller, one cohort, one revision, the rows' constants. */
public final class Identities {

    public static final RosterMember CONTROLLER = Roster.defaultRoster().memberByProfile("prgs-controller").orElseThrow();

    private Identities() {
    }

    /** The controller on {@code pid}, started at {@link Scenario#STARTED}, serving stdio. */
    public static ServerIdentity controller(long pid) {
        return new ServerIdentity(CONTROLLER.profile(), CONTROLLER.namespace(), CONTROLLER.role(), Binding.DEFAULT,
                "/checkout/Gitea-Tools", pid, Scenario.STARTED, RowBuilder.BOOT, RowBuilder.PID_NAMESPACE,
                new Cohort.FromEnv(RowBuilder.COHORT), RowBuilder.HEAD, Transport.STDIO, ClientProvenance.CLIENT_MANAGED);
    }
}
