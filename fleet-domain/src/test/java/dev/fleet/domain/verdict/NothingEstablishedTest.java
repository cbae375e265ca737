package dev.fleet.domain.verdict;

import static dev.fleet.domain.verdict.ClassifierExamples.assertGateShut;
import static dev.fleet.domain.verdict.ClassifierExamples.codes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.fleet.domain.ListingReason;
import dev.fleet.domain.RegistryReason;
import dev.fleet.domain.Scenario;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A registry that cannot be read or a process listing that is unavailable establishes nothing: every
 * list is empty, nothing counts as running, and the verdict says which source failed and why.
 */
class NothingEstablishedTest {

    @Test
    void anUnreadableRegistryEmptiesEveryListAndBlocks() {
        Scenario scenario = Scenario.healthyFive();
        scenario.registryReason = RegistryReason.LOCKED;

        Verdict verdict = scenario.classify();

        assertGateShut(verdict, false);
        assertEquals(List.of("registry_unreadable"), codes(verdict));
        assertEquals(0, verdict.runningMemberCount());
        assertEquals(5, verdict.expectedMemberCount());
        assertEquals(List.of(), verdict.members());
        assertEquals(List.of(), verdict.missingMembers());
        assertEquals(List.of(), verdict.unregisteredProcesses());
        assertEquals(RegistryReason.LOCKED, verdict.registry().reason());
        assertEquals("registry locked", verdict.blockedReasons().get(0).detail());
        String digest = verdict.verdictDigest();
        scenario.rows.clear();
        assertEquals(digest, scenario.classify().verdictDigest(), "nothing read, nothing digested");
    }

    @Test
    void anUnavailableListingEmptiesEveryListAndBlocks() {
        Scenario scenario = Scenario.healthyFive();
        scenario.listingReason = ListingReason.PERMISSION_DENIED;

        Verdict verdict = scenario.classify();

        assertEquals(List.of("process_listing_unavailable"), codes(verdict));
        assertEquals(0, verdict.runningMemberCount());
        assertEquals(List.of(), verdict.members());
        assertEquals(List.of(), verdict.staleRegistrations());
        assertEquals(5, verdict.registry().registrationCount());
        assertNull(verdict.singleCohort());
    }

    @Test
    void bothFailuresAreListedInPriorityOrder() {
        Scenario scenario = Scenario.healthyFive();
        scenario.registryReason = RegistryReason.MISSING;
        scenario.listingReason = ListingReason.UNSUPPORTED_PLATFORM;

        Verdict verdict = scenario.classify();

        assertEquals(List.of("registry_unreadable", "process_listing_unavailable"), codes(verdict));
        assertEquals(BlockedCode.REGISTRY_UNREADABLE, verdict.blockedReason());
    }

    @Test
    void aTableLackingColumnsIsSchemaMissingAndTheDetailNamesThem() {
        Scenario scenario = Scenario.healthyFive();
        scenario.registryReason = RegistryReason.SCHEMA_MISSING;
        scenario.registryDetail = "mcp_server_runtimes lacks columns boot_id, stopped_at";

        Verdict verdict = scenario.classify();

        assertEquals(List.of("registry_unreadable"), codes(verdict));
        assertEquals("registry schema_missing: mcp_server_runtimes lacks columns boot_id, stopped_at",
                verdict.blockedReasons().get(0).detail());
    }
}
