package dev.fleet.domain.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.fleet.domain.Registration;
import dev.fleet.domain.verdict.OutsideText;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a wrapping member records of its child: the command masked and capped, the pid and the start. */
class ServedServerTest {

    private static final Instant NOW = Instant.parse("2026-07-28T02:00:00.250Z");
    private static final Instant CHILD_STARTED = Instant.parse("2026-07-28T02:00:00.125Z");

    @Test
    void theRunningRegistrationRecordsTheWrappedServer() {
        ServedServer child = ServedServer.of(List.of("uvx", "gitea-mcp", "--token", "t0k3n"), 4242, CHILD_STARTED);

        Registration row = Identities.controller(4100).withServer(child).runningRegistration("rt-1", NOW);

        assertEquals("uvx gitea-mcp --token ***", row.server().command());
        assertEquals(4242L, row.server().pid());
        assertEquals(CHILD_STARTED, row.server().startedAt());
    }

    @Test
    void anIdentityWithoutAServerRecordsNone() {
        Registration row = Identities.controller(4100).runningRegistration("rt-1", NOW);

        assertNull(row.server().command());
        assertNull(row.server().pid());
        assertNull(row.server().startedAt());
        assertEquals(row, Identities.controller(4100).withServer(child()).withServer(null)
                .runningRegistration("rt-1", NOW));
    }

    /** Whatever learnt later (the parent, the endpoint, the host) keeps the server. */
    @Test
    void laterFactsKeepTheServer() {
        ServerIdentity identity = Identities.controller(4100).withServer(child())
                .withParent(new ParentProcess(4000, null)).withHostId("0f0f").withEndpoint(null);

        assertEquals(child(), identity.server());
    }

    /**
     * This process's start read anew (a clock step) moves the server's and the parent's by as much: all come from
     * the boot time, and a parent whose recorded start no longer matches reads as gone (every member orphaned).
     */
    @Test
    void aMovedStartMovesTheServersAndTheParentsByAsMuch() {
        Instant clientStarted = Instant.parse("2026-07-28T01:59:23.500Z");
        ServerIdentity wrapping = Identities.controller(4100).withServer(child())
                .withParent(new ParentProcess(4000, clientStarted));

        ServerIdentity stepped = wrapping.withProcessStartedAt(wrapping.processStartedAt().plusSeconds(90));

        assertEquals(new ServedServer("python3 server.py", 4242, CHILD_STARTED.plusSeconds(90)), stepped.server());
        assertEquals(new ParentProcess(4000, clientStarted.plusSeconds(90)), stepped.parent());
        assertEquals(new ParentProcess(4000, null), Identities.controller(4100).withParent(new ParentProcess(4000,
                null)).withProcessStartedAt(NOW).parent(), "a start never read stays unknown");
        assertEquals(child(), wrapping.withProcessStartedAt(wrapping.processStartedAt()).server());
        ServedServer unknownStart = new ServedServer("python3 server.py", 4242, null);
        assertEquals(unknownStart, Identities.controller(4100).withServer(unknownStart).withProcessStartedAt(NOW)
                .server(), "a start never read stays unknown");
    }

    @Test
    void aCommandIsMaskedAndCappedWhateverTheCallerGaveAndAPidMustNameAProcess() {
        ServedServer given = new ServedServer("srv --password hunter2 " + "a".repeat(5_000), 4242, null);
        assertEquals(OutsideText.cap("srv --password *** " + "a".repeat(5_000)), given.command());
        assertEquals(given, new ServedServer(given.command(), 4242, null), "masking and capping again change nothing");
        assertThrows(IllegalArgumentException.class, () -> new ServedServer("srv", 0, null));
    }

    /** A cut right after a secret option must not make masking again hide the cap's count as that option's value. */
    @Test
    void aCommandCutRightAfterASecretOptionKeepsItsCountWhenMaskedAgain() {
        ServedServer once = new ServedServer("a".repeat(OutsideText.MAX_CHARS - 8) + " --token hunter2 tail", 4242, null);

        assertEquals("a".repeat(OutsideText.MAX_CHARS - 8) + " --token…[truncated, 4105 chars]", once.command());
        assertEquals(once, new ServedServer(once.command(), 4242, null));
    }

    private static ServedServer child() {
        return new ServedServer("python3 server.py", 4242, CHILD_STARTED);
    }
}
