package dev.fleet.domain.host;

import static dev.fleet.domain.host.HostFixture.entry;
import static dev.fleet.domain.host.HostFixture.server;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A table that may leave out other users' processes ({@code /proc} mounted with {@code hidepid}, read by a user who
 * is not root): a parent or a pipe holder missing from it may be live, so its absence makes no stray. The host
 * audit's case: a root-owned client starts a server as this user; hidden from the reader, it made the live server
 * {@code orphaned}, and the stop script would have killed it.
 */
class PartialTableTest {

    private static final ConfiguredServer SRV = entry(ClientKind.CLAUDE_CODE, "srv", "/opt/mcpsrv", "--x");

    /** The server 44, ours, reading a pipe from its parent 40: root's client, which hidepid hides (absent here). */
    private static HostFixture underAHiddenClient(boolean partial) {
        HostFixture host = new HostFixture().configure(SRV).process(44, 40, 4_000, 31, "/opt/mcpsrv", "--x");
        host.partial = partial;
        return host;
    }

    @Test
    void aServerWhoseParentIsHiddenIsCurrentWithoutAClientNeverOrphaned() {
        HostInventory inventory = HostClassifier.inventory(underAHiddenClient(true).snapshot(), false);

        HostServer server = server(inventory.report(), 44);
        assertEquals(ServerState.CURRENT, server.state(), "its parent may be live, and hidden from this reader");
        assertNull(server.clientPid());
        assertNull(server.stop());
        assertEquals(0, inventory.report().strays());
        assertTrue(inventory.stopScript().contains("# nothing to stop\n"), inventory.stopScript());
        assertEquals(List.of("cannot tell whether pid 44 is orphaned: /proc hides other users' processes from this "
                + "look (hidepid), and its parent or the holder of its stdin may be one of them; shown current, "
                + "without a client"), inventory.report().warnings());
    }

    /** The same processes in a table that lists every process: its parent is gone, and it is an orphan. */
    @Test
    void inAWholeTableTheSameServerIsOrphaned() {
        assertEquals(ServerState.ORPHANED, server(underAHiddenClient(false).report(), 44).state());
    }

    @Test
    void aServerReadingNoPipeUnderAHiddenParentIsNoOrphan() {
        HostFixture host = new HostFixture().configure(SRV).process(44, 40, 4_000, 0, "/opt/mcpsrv", "--x");
        host.partial = true;

        assertEquals(ServerState.CURRENT, server(host.report(), 44).state());
    }

    /** Its own stat says init is its parent, hidden or not: only the holder of its pipe may be hidden. */
    @Test
    void underInitAServerFedByAPipeIsNoOrphan() {
        HostFixture host = new HostFixture().configure(SRV).process(44, 1, 4_000, 31, "/opt/mcpsrv", "--x");
        host.partial = true;

        assertEquals(ServerState.CURRENT, server(host.report(), 44).state(), "the holder of its pipe may be hidden");
    }

    /** A leftover's wrapper that is hidden may be live: the process is that wrapper's, not a stray. */
    @Test
    void aProcessWhoseParentIsHiddenIsNoLeftover() {
        HostFixture host = new HostFixture().withInit().configure(SRV)
                .client(1000, 1, 1_000, Set.of(12L), "claude")
                .process(4000, 3900, 4_500, 12, "python", "-m", "mcp_files.server");

        assertEquals(ServerState.LEFTOVER, server(host.report(), 4000).state(), "in a whole table its wrapper is gone");
        host.partial = true;
        assertEquals(List.of(), host.report().servers());
    }

    /**
     * The client is the nearest live ancestor: one whose parent is hidden is no older instance of the visible client
     * that holds its pipe, as it would be were its parent known gone.
     */
    @Test
    void aServerUnderAHiddenParentIsNoGenerationOfTheClientHoldingItsPipe() {
        HostFixture host = new HostFixture().withInit().configure(SRV)
                .client(1000, 1, 1_000, Set.of(11L, 12L), "claude")
                .process(1500, 1400, 3_000, 11, "/opt/mcpsrv", "--x")
                .process(2000, 1000, 5_000, 12, "/opt/mcpsrv", "--x");

        assertEquals(ServerState.STALE_GENERATION, server(host.report(), 1500).state(), "in a whole table");
        host.partial = true;
        HostReport report = host.report();
        assertEquals(ServerState.CURRENT, server(report, 1500).state());
        assertNull(server(report, 1500).clientPid());
        assertEquals(0, report.strays());
    }

    /** What is seen still counts: a visible client's older instance is a stray in a partial table too. */
    @Test
    void aVisibleClientsStaleGenerationIsStillAStray() {
        HostFixture host = new HostFixture().withInit().configure(SRV)
                .client(1000, 1, 1_000, Set.of(11L, 12L), "claude")
                .process(1500, 1000, 3_000, 11, "/opt/mcpsrv", "--x")
                .process(2000, 1000, 5_000, 12, "/opt/mcpsrv", "--x");
        host.partial = true;
        HostReport report = host.report();

        assertEquals(ServerState.STALE_GENERATION, server(report, 1500).state());
        assertEquals(ServerState.CURRENT, server(report, 2000).state());
        assertEquals(1, report.strays());
    }
}
