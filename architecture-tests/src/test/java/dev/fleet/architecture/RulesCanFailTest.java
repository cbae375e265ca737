package dev.fleet.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every rule of {@link FleetRules} and {@link DomainPurityRules}, applied to a fixture that breaks it,
 * reports the violation.
 */
class RulesCanFailTest {

    private static final String FIXTURES = "dev.fleet.architecture.fixtures.";
    /** The coupled fixture's two registry adapters ({@code one}, {@code two}), beside the schema they share. */
    private static final String REGISTRY = FIXTURES + "coupled.registry.";
    private static final List<String> REGISTRY_ADAPTERS = List.of(REGISTRY + "one..", REGISTRY + "two..");
    private static final String COUPLED_ROOT = FIXTURES + "coupled.root..";

    private static JavaClasses fixture(String name) {
        return new ClassFileImporter().importPackages(FIXTURES + name);
    }

    /** One check of {@code rule} reports every offender: nothing in a rule hides anything else. */
    private static String assertViolated(ArchRule rule, JavaClasses classes, String... offenders) {
        AssertionError violation = assertThrows(AssertionError.class, () -> rule.check(classes));
        for (String offender : offenders) {
            assertTrue(violation.getMessage().contains(offender), violation.getMessage());
        }
        return violation.getMessage();
    }

    /** The assessment-path rule with the path being the one fixture class {@code simpleName}, here called {@code role}. */
    private static ArchRule noWriteFrom(String role, String simpleName, Set<String> writeClasses) {
        return FleetRules.assessmentPathCannotWrite(describe("are the fixture's " + role,
                javaClass -> javaClass.getSimpleName().equals(simpleName)), "dev.fleet", writeClasses);
    }

    /** A rule reports its offenders and no bystander: a rule that reports everything proves nothing. */
    private static void assertSpared(String violation, String... bystanders) {
        for (String bystander : bystanders) {
            assertFalse(violation.contains(bystander), bystander + " was reported: " + violation);
        }
    }

    @Test
    void aDomainThatUsesALibraryIsReported() {
        assertViolated(DomainPurityRules.dependsOnlyOnTheJdk(FIXTURES + "impuredomain.."), fixture("impuredomain"),
                "org.junit");
    }

    @Test
    void aDomainThatDoesIoIsReported() {
        assertViolated(DomainPurityRules.doesNoIo(FIXTURES + "iodomain.."), fixture("iodomain"), "java.nio.file.Files");
    }

    @Test
    void anAdapterThatKnowsAnotherIsReported() {
        assertViolated(FleetRules.adapterIsIndependent(FIXTURES + "coupled.alpha..",
                        List.of(FIXTURES + "coupled.alpha..", FIXTURES + "coupled.beta.."), COUPLED_ROOT),
                fixture("coupled"), "AlphaAdapter");
    }

    @Test
    void oneRegistryAdapterThatKnowsTheOtherIsReported() {
        String violation = assertViolated(FleetRules.adapterIsIndependent(REGISTRY + "one..", REGISTRY_ADAPTERS,
                COUPLED_ROOT), fixture("coupled.registry"), "OneRegistry");
        assertSpared(violation, "AdapterKnowingSchema");
    }

    @Test
    void aSharedSchemaThatKnowsAnAdapterIsReported() {
        String violation = assertViolated(FleetRules.sharedKnowsNoAdapter(REGISTRY + "schema..", REGISTRY_ADAPTERS,
                COUPLED_ROOT), fixture("coupled.registry"), "AdapterKnowingSchema");
        assertSpared(violation, "OneRegistry");
    }

    @Test
    void anExpositionThatKnowsAnAdapterIsReported() {
        String violation = assertViolated(FleetRules.expositionKnowsOnlyTheDomain(FIXTURES + "exposition.render..",
                        "dev.fleet.domain..", FleetRules.PROMETHEUS), fixture("exposition.render"), "BetaAdapter");
        assertSpared(violation, "Labels");
    }

    @Test
    void aMessageLayerThatKnowsATransportIsReported() {
        String violation = assertViolated(FleetRules.messageLayerKnowsNoTransport(FIXTURES + "layered.jsonrpc..",
                List.of(FIXTURES + "layered.stdio..")), fixture("layered"), "LayerKnowingTransport");
        assertSpared(violation, "PlainId");
    }

    @Test
    void prometheusNamedOutsideTheExpositionIsReported() {
        String violation = assertViolated(FleetRules.onlyTheExpositionNamesPrometheus(FIXTURES + "exposition..",
                        FIXTURES + "exposition.render..", FleetRules.PROMETHEUS), fixture("exposition"),
                "PrometheusNamingVerb");
        assertSpared(violation, "AdapterKnowingRenderer");
    }

    @Test
    void aCycleBetweenTwoPackagesOfOneModuleIsReported() {
        String violation = assertViolated(FleetRules.packagesAreFreeOfCycles(FIXTURES + "cycle",
                        FIXTURES + "cycle.generated.."), fixture("cycle"),
                FIXTURES + "cycle.port.in", FIXTURES + "cycle.lifecycle", "StartUseCase", "LifecycleService");
        assertSpared(violation, "cycle.generated");
    }

    @Test
    void anAdapterThatDependsOnAServiceIsReported() {
        String violation = assertViolated(FleetRules.adaptersUsePortsNotServices(List.of(FIXTURES + "services.adapter.."),
                        FIXTURES + "services.domain..", FIXTURES + "services.domain.port.in.."), fixture("services"),
                "ServiceHolder", "GreetService.PATIENCE");
        assertSpared(violation, "PortHolder");
    }

    @Test
    void aServiceBuiltOutsideTheCompositionRootIsReported() {
        String violation = assertViolated(FleetRules.onlyTheCompositionRootBuildsServices(FIXTURES + "services.root..",
                        FIXTURES + "services.domain..", FIXTURES + "services.domain.port.in.."), fixture("services"),
                "DomainWiring.service()", "DomainWiring.factory()");
        assertSpared(violation, "Main");
    }

    @Test
    void anInPortThatNamesAnOutPortIsReported() {
        assertPortNamesTheOtherSide("in", "out", "InspectUseCase", "Callback");
    }

    @Test
    void anOutPortThatNamesAnInPortIsReported() {
        assertPortNamesTheOtherSide("out", "in", "Callback", "Evidence.read");
    }

    /** The crossedports fixture's {@code side} ports name {@code otherSide}'s: the offender is reported, the bystander not. */
    private static void assertPortNamesTheOtherSide(String side, String otherSide, String offender, String bystander) {
        String ports = FIXTURES + "crossedports.port.";
        String violation = assertViolated(FleetRules.portsIgnoreTheOtherSide(ports + side + "..", ports + otherSide + ".."),
                fixture("crossedports"), offender);
        assertSpared(violation, bystander);
    }

    @Test
    void destroyingAProcessIsReported() {
        assertViolated(FleetRules.nothingIsDestroyed(ArchitectureTest.SERVED_CHILD), fixture("killer"), "Reaper");
    }

    @Test
    void destroyingThroughAMethodReferenceIsReported() {
        assertViolated(FleetRules.nothingIsDestroyed(ArchitectureTest.SERVED_CHILD), fixture("referencekiller"), "ReferenceReaper");
    }

    @Test
    void aClassifierThatReadsTheClockOrRollsDiceIsReported() {
        assertViolated(DomainPurityRules.classifierIsPure(FIXTURES + "impureclassifier.."), fixture("impureclassifier"),
                "Instant.now()", "DiceClassifier");
    }

    @Test
    void startingAProcessOutsideTheDemoIsReported() {
        assertViolated(FleetRules.onlyTheDemoStartsProcesses(ArchitectureTest.STARTERS), fixture("spawner"),
                "Spawner");
    }

    @Test
    void anAssessmentThatReachesADeleteIsReported() {
        assertViolated(noWriteFrom("assessment", "LeakyAssess", Set.of()), fixture("leaky"), "LeakyAssess reaches");
    }

    @Test
    void anAssessmentThatReachesTheWritePortIsReported() {
        assertViolated(noWriteFrom("port user", "WritePortUser", Set.of("dev.fleet.domain.port.out.RegistryWriter")),
                new ClassFileImporter().importPackages(FIXTURES + "leaky", "dev.fleet.domain.port.out"),
                "reaches dev.fleet.domain.port.out.RegistryWriter");
    }

    @Test
    void aWriteReachedThroughAnInterfaceImplementationIsReported() {
        assertViolated(noWriteFrom("assessment", "InterfaceAssess", Set.of()),
                fixture("reach.implementation"), "via InterfaceAssess -> Sweeper -> DeletingSweeper");
    }

    @Test
    void aWriteReachedThroughASubclassIsReported() {
        assertViolated(noWriteFrom("assessment", "SubclassAssess", Set.of()),
                fixture("reach.subclass"), "via SubclassAssess -> Archive -> PurgingArchive");
    }

    @Test
    void aNewClassThatRunsTheAssessmentIsOnThePathUnnamed() {
        String driver = FIXTURES + "assesspath.driver.";
        String violation = assertViolated(FleetRules.assessmentPathCannotWrite(
                        new AssessmentPath(driver + "port.in.CheckUseCase", driver + "port.out..", Set.of()),
                        "dev.fleet", Set.of(driver + "Ledger")),
                fixture("assesspath.driver"), "WatchVerb reaches " + driver + "Ledger",
                "PollingResource reaches " + driver + "Ledger");
        assertSpared(violation, "ServeWiring", "CheckService reaches");
    }

    @Test
    void theEvidenceAdaptersAndTheirReadersAreOnThePathUnnamed() {
        String evidence = FIXTURES + "assesspath.evidence.";
        String violation = assertViolated(FleetRules.assessmentPathCannotWrite(
                        new AssessmentPath(evidence + "port.in.CheckUseCase", evidence + "port.out..",
                                Set.of(evidence + "LedgerKeeper")), "dev.fleet", Set.of()),
                fixture("assesspath.evidence"), "TidyingEvidence reaches", "ListVerb reaches",
                "CheckService reaches");
        assertSpared(violation, "LedgerKeeper");
    }

    /**
     * The host inventory is read-only like the assessment: with its in-port among the read ports, its
     * verb and its evidence adapter are on the path; with the assessment's alone they are not, so it is
     * naming the second port that covers them.
     */
    @Test
    void theHostInventoryPathIsOnThePathToo() {
        String host = FIXTURES + "assesspath.host.";
        Set<String> writes = Set.of(host + "Ledger");
        String violation = assertViolated(FleetRules.assessmentPathCannotWrite(new AssessmentPath(
                        Set.of(host + "port.in.CheckUseCase", host + "port.in.InventoryUseCase"), host + "port.out..",
                        Set.of()), "dev.fleet", writes),
                fixture("assesspath.host"), "HostVerb reaches " + host + "Ledger", "TidyingTable reaches",
                "InventoryService reaches");
        assertSpared(violation, "CheckService reaches");
        assertDoesNotThrow(() -> FleetRules.assessmentPathCannotWrite(new AssessmentPath(host + "port.in.CheckUseCase",
                host + "port.out..", Set.of()), "dev.fleet", writes).check(fixture("assesspath.host")));
    }

    @Test
    void dmlOutsideTheWriteSideIsReported() {
        assertViolated(FleetRules.onlyTheWriteSideWrites(Set.of()), fixture("leaky"), "TidyingHelper");
    }

    @Test
    void dmlThroughAMethodReferenceIsReported() {
        assertViolated(FleetRules.onlyTheWriteSideWrites(Set.of()), fixture("leaky"), "ReferenceWriter");
    }

    @Test
    void liquibaseOutsideTheWriteSideIsReported() {
        assertViolated(FleetRules.onlyTheWriteSideWrites(Set.of()), fixture("leaky"), "MigratingHelper");
    }

    @Test
    void theSharedWritesRunOutsideTheWritersAreReported() {
        assertViolated(FleetRules.onlyTheWritersRunTheWrites(Set.of("dev.fleet.registry.schema.RegistryWrites"),
                Set.of()), fixture("leaky"), "SharedWritesUser");
    }

    @Test
    void theWritePortUsedOutsideTheLifecycleIsReported() {
        assertViolated(FleetRules.onlyTheLifecycleUsesTheWritePort(
                        Set.of("dev.fleet.domain.port.out.RegistryWriter"), Set.of()),
                fixture("leaky"), "WritePortUser");
    }

    @Test
    void printingToStdoutIsReported() {
        assertViolated(FleetRules.onlyThePrinterTouchesStdout(Set.of()), fixture("chatty"), "Chatty.log",
                "RawChatty.stdout");
    }

    @Test
    void aPortThatIsAClassIsReported() {
        assertViolated(FleetRules.portsAreInterfaces(FIXTURES + "ports.port.."), fixture("ports"), "ConcretePort");
    }

    @Test
    void aDomainThatImplementsItsOwnOutPortIsReported() {
        assertViolated(FleetRules.outPortsAreImplementedByAdapters(FIXTURES + "ports.port.out..", FIXTURES
                + "ports.."), fixture("ports"), "DomainSideEvidence");
    }

    @Test
    void theJdkRegexEngineInTheObserverIsReported() {
        assertViolated(FleetRules.neverUsesTheJdkRegexEngine(FIXTURES + "regexobserver.."), fixture("regexobserver"),
                "JdkMatcher", "StringSplitter", "ReferenceMatcher");
    }
}
