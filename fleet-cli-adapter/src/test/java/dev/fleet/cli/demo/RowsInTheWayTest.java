package dev.fleet.cli.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.Binding;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryReason;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Timestamps;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 48: what stands in the way of the demo's many-hosts step is a live row of the default binding, named
 * by the registry's columns; stopped rows, lapsed leases and other fleets' rows are not in the way.
 */
class RowsInTheWayTest {

    private static final Instant NOW = RowBuilder.REGISTERED.plus(Duration.ofMinutes(10));

    private static RowBuilder reconciler(long pid, Duration heartbeatAgo) {
        RowBuilder row = RowBuilder.registered(Roster.defaultRoster().memberByProfile("prgs-reconciler").orElseThrow(),
                pid);
        row.lastHeartbeatAt = Timestamps.format(NOW.minus(heartbeatAgo));
        row.hostId = "host-elsewhere";
        return row;
    }

    @Test
    void aLiveRowOfTheDefaultBindingIsNamedByItsColumns() {
        RegistryRow live = reconciler(4242, Duration.ofSeconds(30)).build();

        String problem = RowsInTheWay.problem(RegistryRead.of(List.of(live), NOW), Binding.DEFAULT, Instant.EPOCH);

        assertEquals("in the way: role reconciler, runtime_id rt-prgs-reconciler-4242, pid 4242, "
                + "host_id host-elsewhere", problem);
    }

    @Test
    void stoppedLapsedAndOtherFleetsRowsAreNotInTheWay() {
        RowBuilder stopped = reconciler(1, Duration.ZERO);
        stopped.status = "stopped";
        RowBuilder otherFleet = reconciler(2, Duration.ZERO);
        otherFleet.repo = "another-repository";
        RegistryRow lapsed = reconciler(3, Duration.ofSeconds(91)).build();

        assertNull(RowsInTheWay.problem(RegistryRead.of(List.of(stopped.build(), otherFleet.build(), lapsed), NOW),
                Binding.DEFAULT, Instant.EPOCH));
    }

    @Test
    void aDatabaseWithoutTheTableYetIsFineButOneThatRefusesIsNamed() {
        assertNull(RowsInTheWay.problem(RegistryRead.unreadable(RegistryReason.MISSING, "no table mcp_server_runtimes"),
                Binding.DEFAULT, NOW));
        String refused = RowsInTheWay.problem(RegistryRead.unreadable(RegistryReason.ACCESS_DENIED), Binding.DEFAULT,
                NOW);
        assertTrue(refused.startsWith("registry unreadable: access_denied. Let the database role"), refused);
    }
}
