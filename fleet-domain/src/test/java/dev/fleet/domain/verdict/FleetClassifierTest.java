package dev.fleet.domain.verdict;

import static dev.fleet.domain.RowBuilder.row;
import static dev.fleet.domain.Scenario.member;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.domain.Binding;
import dev.fleet.domain.ListingReason;
import dev.fleet.domain.RegistryReason;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Scenario;
import dev.fleet.domain.Timestamps;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class FleetClassifierTest {

    private static List<String> codes(Verdict verdict) {
        return verdict.blockedReasons().stream().map(reason -> reason.code().code()).toList();
    }

    private static List<String> reasons(List<FlaggedRegistration> flagged) {
        return flagged.stream().map(entry -> entry.reason().code()).toList();
    }

    private static void assertRunningFive(Verdict verdict) {
        assertTrue(verdict.inventoryComplete());
        assertTrue(verdict.mutationGateSatisfied());
        assertEquals(5, verdict.runningMemberCount());
    }

    @Nested
    class HealthyFleet {

        @Test
        void theDefaultFiveRegisteredAndObservedSatisfyTheGate() {
            Verdict verdict = Scenario.healthyFive().classify();

            assertRunningFive(verdict);
            assertNull(verdict.blockedReason());
            assertEquals(List.of(), verdict.blockedReasons());
            assertEquals(5, verdict.expectedMemberCount());
            assertTrue(verdict.members().stream().allMatch(report -> report.state() == MemberState.RUNNING));
            assertEquals(Boolean.TRUE, verdict.singleCohort());
            assertEquals(List.of(RowBuilder.COHORT), verdict.cohortIds());
            assertEquals(Boolean.TRUE, verdict.singleRevision());
            assertEquals(List.of(RowBuilder.HEAD), verdict.startupHeads());
            assertEquals(5, verdict.registry().registrationCount());
            assertEquals(5, verdict.processListing().serverProcessCount());
            assertTrue(verdict.verdictDigest().matches("sha256:[0-9a-f]{64}"));
        }

        @Test
        void membersAreSortedByNamespaceAndInstancesCarryObservedAndRecordedStarts() {
            Scenario scenario = Scenario.healthyFive();
            scenario.rows.set(0, row(member("author"), 4100)
                    .with(r -> r.processStartedAt = Timestamps.format(Scenario.STARTED)).build());
            Verdict verdict = scenario.classify();

            assertEquals(List.of("gitea-author", "gitea-controller", "gitea-merger", "gitea-reconciler",
                    "gitea-reviewer"), verdict.members().stream().map(report -> report.member().namespace()).toList());
            Instance author = verdict.members().get(0).instances().get(0);
            assertEquals(Scenario.STARTED, author.observedProcessStartedAt());
            assertEquals(Scenario.STARTED, author.recordedProcessStartedAt());
            assertNull(verdict.members().get(1).instances().get(0).recordedProcessStartedAt());
        }

        @Test
        void aWholeSecondRegisteredAtEqualToTheStartsSecondIsLive() {
            Instant start = Instant.parse("2026-07-28T02:00:00.900Z");
            Scenario scenario = Scenario.healthyFive();
            scenario.rows.set(0, row(member("author"), 4100)
                    .with(r -> r.registeredAt = "2026-07-28T02:00:00Z").build());
            scenario.removeProcess(4100).process(4100, start, Scenario.serveCommand("prgs-author"));

            Verdict verdict = scenario.classify();

            assertRunningFive(verdict);
            assertEquals(List.of(), verdict.staleRegistrations());
        }

        @Test
        void anOffsetTimestampFromAnotherWriterIsAcceptedLikeZulu() {
            Scenario scenario = Scenario.healthyFive();
            scenario.rows.set(2, row(member("controller"), 4102)
                    .with(r -> r.registeredAt = "2026-07-28T04:00:00+02:00").build());
            assertRunningFive(scenario.classify());
        }

        @Test
        void theAnsweringServerIsReportedButNotDigested() {
            Scenario scenario = Scenario.healthyFive();
            Verdict anonymous = scenario.classify();
            scenario.answeredBy = new dev.fleet.domain.AnsweredBy(4102, "gitea-controller", "prgs-controller");
            Verdict answered = scenario.classify();

            assertEquals(anonymous.verdictDigest(), answered.verdictDigest());
            assertEquals(4102, answered.observation().answeredBy().pid());
            assertEquals("/state/control_plane.sqlite3", answered.observation().registryPath());
        }
    }

    @Nested
    class MembersAndDuplicates {

        @Test
        void aMemberWithNoRegistrationIsMissing() {
            Scenario scenario = Scenario.healthyFive();
            scenario.rows.remove(3);
            scenario.removeProcess(4103);

            Verdict verdict = scenario.classify();

            assertTrue(verdict.inventoryComplete());
            assertFalse(verdict.mutationGateSatisfied());
            assertEquals("missing_member", verdict.blockedReason().code());
            assertEquals(List.of(member("merger")), verdict.missingMembers());
            assertEquals(4, verdict.runningMemberCount());
            assertTrue(verdict.blockedReasons().get(0).detail().contains("gitea-merger"));
        }

        @Test
        void configurationAloneNeverCounts() {
            Verdict verdict = Scenario.empty().classify();

            assertEquals(0, verdict.runningMemberCount());
            assertEquals(5, verdict.missingMembers().size());
            assertEquals(List.of("missing_member"), codes(verdict));
            assertNull(verdict.singleCohort());
            assertNull(verdict.singleRevision());
        }

        @Test
        void aSecondInstanceOfAMemberIsADuplicateAndCountsAsASixthProcess() {
            Scenario scenario = Scenario.healthyFive().server(row(member("author"), 5100));

            Verdict verdict = scenario.classify();

            assertTrue(verdict.inventoryComplete());
            assertFalse(verdict.mutationGateSatisfied());
            assertEquals(List.of("duplicate_member"), codes(verdict));
            assertEquals(6, verdict.runningMemberCount());
            assertEquals(5, verdict.expectedMemberCount());
            MemberReport duplicate = verdict.duplicateMembers().get(0);
            assertEquals(member("author"), duplicate.member());
            assertEquals(List.of(4100L, 5100L), duplicate.instances().stream().map(Instance::pid).toList());
            assertEquals(MemberState.DUPLICATE, verdict.members().get(0).state());
        }

        @Test
        void twoClientsEachLaunchingFiveServersGiveFiveDuplicatesAndACohortSplit() {
            // The regression that started it all: ten processes, all truthfully on one revision.
            Scenario scenario = Scenario.healthyFive();
            long pid = 6100;
            for (RosterMember rosterMember : scenario.roster.members()) {
                scenario.server(row(rosterMember, pid++).with(r -> r.cohortId = "ppid:51234"));
            }

            Verdict verdict = scenario.classify();

            assertEquals(List.of("duplicate_member", "cohort_split"), codes(verdict));
            assertEquals(5, verdict.duplicateMembers().size());
            assertEquals(10, verdict.runningMemberCount());
            assertEquals(Boolean.FALSE, verdict.singleCohort());
            assertEquals(List.of("ppid:40990", "ppid:51234"), verdict.cohortIds());
            assertEquals(Boolean.TRUE, verdict.singleRevision());
            assertTrue(verdict.inventoryComplete());
            assertFalse(verdict.mutationGateSatisfied());
        }

        @Test
        void aLiveRegistrationBoundToAnotherRepositoryIsUnexpected() {
            Scenario scenario = Scenario.healthyFive()
                    .server(row(member("author"), 5200).with(r -> r.repo = "Other-Repo"));

            Verdict verdict = scenario.classify();

            assertEquals(List.of("unexpected_member"), codes(verdict));
            assertEquals(List.of("binding_mismatch"), reasons(verdict.unexpectedMembers()));
            assertEquals(5, verdict.runningMemberCount());
        }

        @Test
        void aLiveRegistrationOutsideTheRosterIsUnexpected() {
            Scenario scenario = Scenario.healthyFive()
                    .server(row(new RosterMember("gitea-janitor", "prgs-janitor", "janitor"), 5300));

            Verdict verdict = scenario.classify();

            assertEquals(List.of("unexpected_member"), codes(verdict));
            assertEquals(List.of("not_in_roster"), reasons(verdict.unexpectedMembers()));
            assertTrue(verdict.blockedReasons().get(0).detail().contains("gitea-janitor/prgs-janitor pid 5300"));
        }

        @Test
        void aRegistrationWhoseRoleDisagreesWithTheRosterIsNotAMember() {
            Scenario scenario = Scenario.healthyFive();
            scenario.rows.set(0, row(member("author"), 4100).with(r -> r.role = "reviewer").build());

            Verdict verdict = scenario.classify();

            assertEquals(List.of("missing_member", "unexpected_member"), codes(verdict));
            assertEquals(List.of("not_in_roster"), reasons(verdict.unexpectedMembers()));
        }

        @Test
        void unexpectedRegistrationsDoNotTakePartInTheCohort() {
            Scenario scenario = Scenario.healthyFive()
                    .server(row(member("author"), 5400).with(r -> {
                        r.repo = "Other-Repo";
                        r.cohortId = null;
                    }));

            Verdict verdict = scenario.classify();

            assertEquals(Boolean.TRUE, verdict.singleCohort());
            assertEquals(List.of("unexpected_member"), codes(verdict));
        }

        @Test
        void aCustomRosterDefinesTheFleet() {
            Scenario scenario = Scenario.empty();
            scenario.roster = new Roster(new Binding("origin", "acme", "widgets"),
                    List.of(new RosterMember("w-author", "w-author", "author")), List.of("widget-server"));
            scenario.server(row(new RosterMember("w-author", "w-author", "author"), 700).with(r -> {
                r.remote = "origin";
                r.org = "acme";
                r.repo = "widgets";
            }));
            scenario.processes.clear();
            scenario.process(700, Scenario.STARTED, "python -m widget-server --profile w-author");

            Verdict verdict = scenario.classify();

            assertTrue(verdict.mutationGateSatisfied());
            assertEquals(1, verdict.runningMemberCount());
            assertEquals(1, verdict.processListing().serverProcessCount());
        }
    }

    @Nested
    class StaleRegistrations {

        @Test
        void aRegistrationWhoseProcessIsGoneIsStaleAndAloneBlocksNothing() {
            Scenario scenario = Scenario.healthyFive()
                    .row(row(member("author"), 9100).with(r -> r.runtimeId = "rt-crashed"));

            Verdict verdict = scenario.classify();

            assertRunningFive(verdict);
            assertEquals(List.of("process_exited"), reasons(verdict.staleRegistrations()));
            assertNull(verdict.staleRegistrations().get(0).instance().observedProcessStartedAt());
        }

        @Test
        void aProcessThatStartedAfterTheRegistrationIsARecycledPid() {
            Scenario scenario = Scenario.healthyFive();
            scenario.removeProcess(4100).process(4100, RowBuilder.REGISTERED.plusSeconds(5),
                    Scenario.serveCommand("prgs-author"));

            Verdict verdict = scenario.classify();

            assertEquals(List.of("pid_reused"), reasons(verdict.staleRegistrations()));
            assertEquals(List.of("unregistered_process", "missing_member"), codes(verdict));
        }

        @Test
        void aStartMoreThanOneSecondFromTheRecordedStartIsARecycledPid() {
            Scenario scenario = Scenario.healthyFive();
            scenario.rows.set(0, row(member("author"), 4100)
                    .with(r -> r.processStartedAt = Timestamps.format(Scenario.STARTED.minusMillis(1_001))).build());

            Verdict verdict = scenario.classify();

            assertEquals(List.of("pid_reused"), reasons(verdict.staleRegistrations()));
            assertEquals(4, verdict.runningMemberCount());
        }

        @Test
        void aRecordedStartWithinOneSecondIsTheSameProcess() {
            Scenario scenario = Scenario.healthyFive();
            scenario.rows.set(0, row(member("author"), 4100)
                    .with(r -> r.processStartedAt = Timestamps.format(Scenario.STARTED.minusMillis(1_000))).build());

            assertRunningFive(scenario.classify());
        }

        @Test
        void theServerBehindARecycledPidShowsAsUnregistered() {
            Scenario scenario = Scenario.healthyFive();
            scenario.removeProcess(4100)
                    .process(4100, RowBuilder.REGISTERED.plusSeconds(30), Scenario.serveCommand("prgs-author"));

            Verdict verdict = scenario.classify();

            assertEquals(List.of("pid_reused"), reasons(verdict.staleRegistrations()));
            assertEquals(List.of(4100L), verdict.unregisteredProcesses().stream().map(UnregisteredProcess::pid).toList());
            assertEquals(UnregisteredReason.NO_REGISTRATION, verdict.unregisteredProcesses().get(0).reason());
            assertEquals("unregistered_process", verdict.blockedReason().code());
        }

        @Test
        void twoRunningRowsOnOnePidLeaveOnlyTheNewestLive() {
            Scenario scenario = Scenario.healthyFive()
                    .row(row(member("author"), 4100).with(r -> {
                        r.runtimeId = "rt-older";
                        r.registeredAt = "2026-07-28T01:00:00Z";
                        r.lastHeartbeatAt = "2026-07-28T01:00:00Z";
                    }));

            Verdict verdict = scenario.classify();

            assertRunningFive(verdict);
            assertEquals(List.of("superseded"), reasons(verdict.staleRegistrations()));
            assertEquals("rt-older", verdict.staleRegistrations().get(0).instance().runtimeId());
        }

        @Test
        void supersededTiesOnRegisteredAtAreBrokenByTheGreaterRuntimeId() {
            Scenario scenario = Scenario.healthyFive()
                    .row(row(member("author"), 4100).with(r -> r.runtimeId = "rt-aaa"));

            Verdict verdict = scenario.classify();

            // "rt-prgs-author-4100" > "rt-aaa": the default row stays live.
            assertEquals("rt-aaa", verdict.staleRegistrations().get(0).instance().runtimeId());
            assertRunningFive(verdict);
        }

        @Test
        void aRowFromAnotherBootIsStaleEvenIfItsPidIsAlive() {
            Scenario scenario = Scenario.healthyFive();
            scenario.rows.set(0, row(member("author"), 4100).with(r -> r.bootId = "old-boot").build());

            Verdict verdict = scenario.classify();

            assertEquals(List.of("previous_boot"), reasons(verdict.staleRegistrations()));
            assertEquals(List.of("unregistered_process", "missing_member"), codes(verdict));
        }

        @Test
        void bootIdsAreComparedTrimmedAndCaseInsensitively() {
            Scenario scenario = Scenario.healthyFive();
            scenario.rows.set(0, row(member("author"), 4100)
                    .with(r -> r.bootId = "  " + RowBuilder.BOOT.toUpperCase() + "\n").build());

            assertRunningFive(scenario.classify());
        }

        @Test
        void anUnknownObservedBootIdNeverMakesARowStale() {
            Scenario scenario = Scenario.healthyFive();
            scenario.bootId = null;

            assertRunningFive(scenario.classify());
        }

        @Test
        void stoppedRowsAreNeitherStaleNorRunning() {
            Scenario scenario = Scenario.healthyFive()
                    .row(row(member("author"), 9200).with(r -> {
                        r.status = "stopped";
                        r.stoppedAt = "2026-07-28T02:30:00Z";
                    }));

            Verdict verdict = scenario.classify();

            assertRunningFive(verdict);
            assertEquals(List.of(), verdict.staleRegistrations());
            assertEquals(6, verdict.registry().registrationCount());
        }
    }

    @Nested
    class IncompleteInventory {

        @Test
        void aServerProcessWithoutAnyRegistrationIsUnregistered() {
            Scenario scenario = Scenario.healthyFive().process(7100, Scenario.STARTED, Scenario.serveCommand("x"));

            Verdict verdict = scenario.classify();

            assertFalse(verdict.inventoryComplete());
            assertFalse(verdict.mutationGateSatisfied());
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

        @Test
        void anUnknownCohortBlocksTheInventory() {
            Scenario scenario = Scenario.healthyFive();
            scenario.rows.set(1, row(member("reviewer"), 4101).with(r -> {
                r.cohortId = null;
                r.cohortSource = "unknown";
            }).build());

            Verdict verdict = scenario.classify();

            assertEquals(List.of("cohort_unknown"), codes(verdict));
            assertNull(verdict.singleCohort());
            assertFalse(verdict.inventoryComplete());
            assertTrue(verdict.blockedReasons().get(0).detail().contains("gitea-reviewer/prgs-reviewer pid 4101"));
        }

        @Test
        void anUnknownRevisionBlocksTheInventory() {
            Scenario scenario = Scenario.healthyFive();
            scenario.rows.set(1, row(member("reviewer"), 4101).with(r -> r.startupHead = null).build());

            Verdict verdict = scenario.classify();

            assertEquals(List.of("revision_unknown"), codes(verdict));
            assertNull(verdict.singleRevision());
            assertEquals(List.of(RowBuilder.HEAD), verdict.startupHeads());
        }

        @Test
        void twoRevisionsSplitTheFleetButLeaveTheInventoryComplete() {
            Scenario scenario = Scenario.healthyFive();
            scenario.rows.set(1, row(member("reviewer"), 4101).with(r -> r.startupHead = "0ldc0ffee").build());

            Verdict verdict = scenario.classify();

            assertEquals(List.of("revision_split"), codes(verdict));
            assertEquals(Boolean.FALSE, verdict.singleRevision());
            assertTrue(verdict.inventoryComplete());
            assertEquals(List.of("0ldc0ffee", RowBuilder.HEAD), verdict.startupHeads());
        }

        @Test
        void twoCohortsSplitTheFleet() {
            Scenario scenario = Scenario.healthyFive();
            scenario.rows.set(4, row(member("reconciler"), 4104).with(r -> r.cohortId = "env:other").build());

            Verdict verdict = scenario.classify();

            assertEquals(List.of("cohort_split"), codes(verdict));
            assertEquals(Boolean.FALSE, verdict.singleCohort());
        }
    }

    @Nested
    class MalformedRows {

        @Test
        void aRowWithANonPositivePidIsMalformedAndNeverRunning() {
            Scenario scenario = Scenario.healthyFive()
                    .row(row(member("author"), 0).with(r -> r.runtimeId = "rt-zero"));

            Verdict verdict = scenario.classify();

            assertEquals(List.of("malformed_registration"), codes(verdict));
            assertEquals("rt-zero", verdict.malformedRegistrations().get(0).runtimeId());
            assertEquals("pid_invalid", verdict.malformedRegistrations().get(0).reason().code());
            assertEquals(5, verdict.runningMemberCount());
        }

        @Test
        void anUnparseableTimestampIsMalformedWhileOtherRowsStillClassify() {
            Scenario scenario = Scenario.healthyFive();
            scenario.rows.set(0, row(member("author"), 4100).with(r -> r.registeredAt = "not-a-time").build());

            Verdict verdict = scenario.classify();

            assertEquals("registered_at_unparseable", verdict.malformedRegistrations().get(0).reason().code());
            assertEquals(4, verdict.runningMemberCount());
            // Its process is still a server with no interpretable registration.
            assertEquals(List.of("malformed_registration", "unregistered_process", "missing_member"), codes(verdict));
        }

        @Test
        void aBlankNamespaceIsMalformed() {
            Scenario scenario = Scenario.healthyFive()
                    .row(row(member("author"), 9300).with(r -> r.namespace = "   "));

            Verdict verdict = scenario.classify();

            assertEquals("namespace_blank", verdict.malformedRegistrations().get(0).reason().code());
            assertFalse(verdict.inventoryComplete());
        }
    }

    @Nested
    class NothingEstablished {

        @Test
        void anUnreadableRegistryEmptiesEveryListAndBlocks() {
            Scenario scenario = Scenario.healthyFive();
            scenario.registryReason = RegistryReason.LOCKED;

            Verdict verdict = scenario.classify();

            assertFalse(verdict.inventoryComplete());
            assertFalse(verdict.mutationGateSatisfied());
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
    }

    @Nested
    class PidNamespaces {

        private static final String CHILD = "pid:[4026532500]";

        @Test
        void aRowFromAnotherNamespaceWhosePidIsGoneHereIsUnverifiedNotExited() {
            Scenario scenario = Scenario.healthyFive().row(row(member("author"), 7).with(r -> {
                r.runtimeId = "rt-host";
                r.pidNamespace = CHILD;
            }));

            Verdict verdict = scenario.classify();

            assertEquals(List.of("other_pid_namespace"), reasons(verdict.unverifiedRegistrations()));
            assertEquals(List.of(), verdict.staleRegistrations());
            assertEquals(List.of("pid_namespace_mismatch"), codes(verdict));
            assertFalse(verdict.inventoryComplete());
            assertFalse(verdict.mutationGateSatisfied());
            assertEquals(5, verdict.runningMemberCount(), "it counts nowhere");
            Instance shown = verdict.unverifiedRegistrations().get(0).instance();
            assertNull(shown.observedProcessStartedAt(), "no process here can be its process");
            assertEquals("gitea-author/prgs-author pid 7", verdict.blockedReasons().get(0).detail());
        }

        @Test
        void aRowFromAnotherNamespaceOnALivePidHereNeverCountsAsThatProcess() {
            Scenario scenario = Scenario.healthyFive();
            scenario.rows.set(0, RowBuilder.from(scenario.rows.get(0)).with(r -> r.pidNamespace = CHILD).build());

            Verdict verdict = scenario.classify();

            assertEquals(List.of("other_pid_namespace"), reasons(verdict.unverifiedRegistrations()));
            assertEquals(4, verdict.runningMemberCount());
            assertEquals(BlockedCode.PID_NAMESPACE_MISMATCH, verdict.blockedReason());
        }

        @Test
        void aRowWithoutANamespaceOrAnAnswererWithoutOneIsJudgedAsBefore() {
            Scenario unrecorded = Scenario.healthyFive();
            unrecorded.rows.replaceAll(row -> RowBuilder.from(row).with(r -> r.pidNamespace = null).build());
            assertRunningFive(unrecorded.classify());

            Scenario unknownHere = Scenario.healthyFive();
            unknownHere.rows.set(0, RowBuilder.from(unknownHere.rows.get(0)).with(r -> r.pidNamespace = CHILD).build());
            unknownHere.pidNamespace = null;
            assertRunningFive(unknownHere.classify());
        }

        @Test
        void onlyRowsOfTheSameNamespaceSupersedeEachOther() {
            Scenario scenario = Scenario.healthyFive().row(row(member("author"), 4100).with(r -> {
                r.runtimeId = "rt-child-newer";
                r.registeredAt = Timestamps.format(RowBuilder.REGISTERED.plusSeconds(5));
                r.pidNamespace = CHILD;
            }));

            Verdict verdict = scenario.classify();

            assertEquals(5, verdict.runningMemberCount(), "the host's pid 4100 is still its author");
            assertEquals(List.of(), verdict.staleRegistrations());
            assertEquals(List.of("other_pid_namespace"), reasons(verdict.unverifiedRegistrations()));
        }

        @Test
        void theAnswerersNamespaceIsReportedButNotDigested() {
            Scenario scenario = Scenario.healthyFive();
            scenario.rows.replaceAll(row -> RowBuilder.from(row).with(r -> r.pidNamespace = null).build());
            Verdict host = scenario.classify();
            scenario.pidNamespace = CHILD;
            Verdict child = scenario.classify();

            assertEquals(host.verdictDigest(), child.verdictDigest());
            assertEquals(CHILD, child.observation().pidNamespace());
        }
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

    @Test
    void everyBlockedReasonAppearsInPriorityOrderWithAnAction() {
        Scenario scenario = Scenario.healthyFive();
        scenario.rows.set(0, row(member("author"), 4100).with(r -> r.cohortId = null).build());
        scenario.rows.set(1, row(member("reviewer"), 4101).with(r -> r.startupHead = null).build());
        scenario.rows.remove(3);
        scenario.removeProcess(4103);
        scenario.server(row(member("controller"), 5102).with(r -> r.cohortId = "other"))
                .server(row(member("controller"), 5103).with(r -> r.startupHead = "other"))
                .server(row(new RosterMember("x", "y", "z"), 5104))
                .row(row(member("author"), -1))
                .process(5105, Scenario.STARTED, Scenario.serveCommand("ghost"))
                .server(row(member("reconciler"), 5106).with(r -> r.runtimeId = "rt-unverified"))
                .row(row(member("merger"), 5107).with(r -> r.pidNamespace = "pid:[4026532500]"));
        scenario.removeProcess(5106).process(5106, null, Scenario.serveCommand("prgs-reconciler"));

        Verdict verdict = scenario.classify();

        assertEquals(List.of("malformed_registration", "unregistered_process", "process_start_unknown",
                "pid_namespace_mismatch", "cohort_unknown", "revision_unknown", "duplicate_member", "missing_member", "unexpected_member"),
                codes(verdict));
        assertTrue(verdict.blockedReasons().stream().allMatch(reason -> !reason.action().isBlank()));
        assertEquals(BlockedCode.MALFORMED_REGISTRATION, verdict.blockedReason());
    }

    @Test
    void splitsFollowEveryOtherReason() {
        Scenario scenario = Scenario.healthyFive()
                .server(row(member("author"), 5100).with(r -> {
                    r.cohortId = "other";
                    r.startupHead = "other";
                }));

        assertEquals(List.of("duplicate_member", "cohort_split", "revision_split"), codes(scenario.classify()));
    }
}
