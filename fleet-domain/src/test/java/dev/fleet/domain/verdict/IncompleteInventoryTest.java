package dev.fleet.domain.verdict;

import static dev.fleet.domain.RowBuilder.row;
import static dev.fleet.domain.Scenario.member;
import static dev.fleet.domain.verdict.ClassifierExamples.assertGateShut;
import static dev.fleet.domain.verdict.ClassifierExamples.assertRunningFive;
import static dev.fleet.domain.verdict.ClassifierExamples.codes;
import static dev.fleet.domain.verdict.ClassifierExamples.reasons;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.fleet.domain.Scenario;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Where the registry and the process listing fail to vouch for each other (a server process no running
 * row names, a live row whose process start is unknown), the inventory is incomplete and the gate stays shut.
 */
class IncompleteInventoryTest {

    @Test
    void aServerProcessWithoutAnyRegistrationIsUnregistered() {
        Scenario scenario = Scenario.healthyFive().process(7100, Scenario.STARTED, Scenario.serveCommand("x"));

        Verdict verdict = scenario.classify();

        assertGateShut(verdict, false);
        assertEquals(List.of("unregistered_process"), codes(verdict));
        assertEquals(UnregisteredReason.NO_REGISTRATION, verdict.unregisteredProcesses().get(0).reason());
        assertEquals(6, verdict.processListing().serverProcessCount());
    }

    @Test
    void aServerProcessWhoseOnlyRowSaysStoppedIsUnregisteredWithThatReason() {
        Scenario scenario = Scenario.healthyFive()
                .row(row(member("author"), 7200).with(r -> r.status = "stopped"))
                .process(7200, Scenario.STARTED, Scenario.serveCommand("prgs-author"));

        Verdict verdict = scenario.classify();

        assertEquals(UnregisteredReason.REGISTRATION_STOPPED, verdict.unregisteredProcesses().get(0).reason());
        assertEquals("unregistered_process", verdict.blockedReason().code());
    }

    @Test
    void aProcessThatDoesNotLookLikeAServerIsNeverUnregistered() {
        Scenario scenario = Scenario.healthyFive().process(7300, Scenario.STARTED, "vim fleet.jar");
        assertRunningFive(scenario.classify());
    }

    @Test
    void aLiveProcessWithAnUnknownStartIsUnverified() {
        Scenario scenario = Scenario.healthyFive();
        scenario.removeProcess(4104).process(4104, null, Scenario.serveCommand("prgs-reconciler"));

        Verdict verdict = scenario.classify();

        // An unverified registration is not an instance, so its member also shows missing.
        assertEquals(List.of("process_start_unknown", "missing_member"), codes(verdict));
        assertEquals(List.of("process_start_unknown"), reasons(verdict.unverifiedRegistrations()));
        assertFalse(verdict.inventoryComplete());
        assertEquals(4, verdict.runningMemberCount());
        assertEquals(List.of(), verdict.unregisteredProcesses(), "an unverified registration covers its pid");
    }
}
