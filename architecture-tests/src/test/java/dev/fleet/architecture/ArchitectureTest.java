package dev.fleet.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The rules of {@link FleetRules}, applied to the product's compiled classes (tests excluded). */
class ArchitectureTest {

    static final JavaClasses PRODUCT = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.fleet");

    /**
     * What an assessment runs: the tool, the read-only CLI verbs, the use case and the read side (and the observer);
     * and the fleet in motion, every watch, wait and subscription (and the domain's motion package).
     */
    static final Set<String> ASSESSMENT_CLASSES = Set.of(
            "dev.fleet.mcp.AssessFleetInventoryTool",
            "dev.fleet.cli.AssessCommand",
            "dev.fleet.cli.ProcessesCommand",
            "dev.fleet.cli.RegistryListCommand",
            "dev.fleet.domain.assessment.AssessFleetInventoryService",
            "dev.fleet.registry.sqlite.SqliteRegistryReader",
            "dev.fleet.cli.WatchCommand",
            "dev.fleet.cli.WaitCommand",
            "dev.fleet.cli.VerdictWatch",
            "dev.fleet.cli.VerdictWait",
            "dev.fleet.cli.WatchText",
            "dev.fleet.cli.DemoSubscription",
            "dev.fleet.mcp.VerdictResource",
            "dev.fleet.mcp.VerdictFeed",
            "dev.fleet.mcp.VerdictSubscriptions",
            "dev.fleet.mcp.SubscriberProbe",
            "dev.fleet.mcp.SubscribeWatchingMapper");
    static final String OBSERVER_PACKAGE = "dev.fleet.observer";
    static final String MOTION_PACKAGE = "dev.fleet.domain.motion";
    static final DescribedPredicate<JavaClass> ASSESSMENT_PATH = describe("are on the assessment path",
            javaClass -> ASSESSMENT_CLASSES.contains(javaClass.getName())
                    || javaClass.getPackageName().equals(OBSERVER_PACKAGE)
                    || javaClass.getPackageName().equals(MOTION_PACKAGE));

    static final Set<String> WRITE_PORT = Set.of("dev.fleet.domain.port.out.RegistryWriter",
            "dev.fleet.registry.sqlite.SqliteRegistryWriter");
    static final Set<String> WRITE_SIDE = Set.of("dev.fleet.registry.sqlite.SqliteRegistryWriter",
            "dev.fleet.registry.sqlite.SchemaMigration");
    static final Set<String> WRITE_SIDE_AND_PORT = union(WRITE_PORT, WRITE_SIDE);
    /**
     * A server's lifecycle (the domain's application service), the composition root that builds it,
     * and the operator's explicit `fleet registry migrate`. No adapter drives the write port itself.
     */
    static final Set<String> LIFECYCLE = Set.of("dev.fleet.domain.lifecycle.ServerLifecycleService",
            "dev.fleet.cli.ServeCommand", "dev.fleet.cli.RegistryMigrateCommand");
    /** The CLI's output printer, and the MCP stdio transport that owns stdout while serving. */
    static final Set<String> STDOUT_OWNERS = Set.of("dev.fleet.cli.StandardStreams", "dev.fleet.mcp.FleetMcpServer");

    /**
     * The rules name classes as text; a class renamed or moved would silently drop out of its rule.
     * So every name must still be a product class.
     */
    @Test
    void everyClassTheRulesNameExists() {
        Set<String> named = new java.util.TreeSet<>();
        List.of(ASSESSMENT_CLASSES, WRITE_PORT, WRITE_SIDE, LIFECYCLE, STDOUT_OWNERS).forEach(named::addAll);
        List<String> missing = named.stream().filter(name -> !PRODUCT.contain(name)).toList();
        assertTrue(missing.isEmpty(), "the rules name classes that no longer exist: " + missing);
        assertTrue(PRODUCT.stream().anyMatch(javaClass -> javaClass.getPackageName().equals(OBSERVER_PACKAGE)));
        assertTrue(PRODUCT.stream().anyMatch(javaClass -> javaClass.getPackageName().equals(MOTION_PACKAGE)));
    }

    private static Set<String> union(Set<String> first, Set<String> second) {
        Set<String> all = new java.util.HashSet<>(first);
        all.addAll(second);
        return Set.copyOf(all);
    }

    @Test
    void everyModuleIsImported() {
        for (String pkg : new String[] {"dev.fleet.domain", "dev.fleet.registry.sqlite", "dev.fleet.observer",
                "dev.fleet.mcp", "dev.fleet.cli"}) {
            assertTrue(PRODUCT.stream().anyMatch(javaClass -> javaClass.getPackageName().equals(pkg)), pkg);
        }
    }

    // One rule per test: a test stops at its first failed check, so two rules in one test would
    // let a broken rule hide another (EveryTestChecksOneRuleTest keeps it so).

    @Test
    void theDomainDependsOnlyOnTheJdk() {
        FleetRules.dependsOnlyOnTheJdk(FleetRules.DOMAIN).check(PRODUCT);
    }

    @Test
    void theDomainDoesNoIo() {
        FleetRules.doesNoIo(FleetRules.DOMAIN).check(PRODUCT);
    }

    @Test
    void theClassifierIsPure() {
        FleetRules.classifierIsPure("dev.fleet.domain.verdict..").check(PRODUCT);
    }

    static List<String> adapters() {
        return FleetRules.ADAPTERS;
    }

    @ParameterizedTest
    @MethodSource("adapters")
    void anAdapterKnowsNoOtherAdapterNorTheCompositionRoot(String adapter) {
        FleetRules.adapterIsIndependent(adapter, FleetRules.ADAPTERS, FleetRules.COMPOSITION_ROOT).check(PRODUCT);
    }

    @Test
    void nothingIsDestroyed() {
        FleetRules.nothingIsDestroyed().check(PRODUCT);
    }

    @Test
    void onlyTheDemoStartsProcesses() {
        FleetRules.onlyTheDemoStartsProcesses("dev\\.fleet\\.cli\\.Demo.*").check(PRODUCT);
    }

    @Test
    void theAssessmentPathCannotReachAnyWrite() {
        FleetRules.assessmentPathCannotWrite(ASSESSMENT_PATH, "dev.fleet", WRITE_SIDE_AND_PORT).check(PRODUCT);
    }

    @Test
    void onlyTheWriteSideWrites() {
        FleetRules.onlyTheWriteSideWrites(WRITE_SIDE).check(PRODUCT);
    }

    @Test
    void onlyTheLifecycleUsesTheWritePort() {
        FleetRules.onlyTheLifecycleUsesTheWritePort(WRITE_PORT, LIFECYCLE).check(PRODUCT);
    }

    @Test
    void onlyThePrinterTouchesStdout() {
        FleetRules.onlyThePrinterTouchesStdout(STDOUT_OWNERS).check(PRODUCT);
    }

    @Test
    void portsAreInterfaces() {
        FleetRules.portsAreInterfaces(FleetRules.PORTS).check(PRODUCT);
    }

    @Test
    void outPortsAreImplementedByAdapters() {
        FleetRules.outPortsAreImplementedByAdapters(FleetRules.OUT_PORTS, FleetRules.DOMAIN).check(PRODUCT);
    }

    @Test
    void theObserverNeverUsesTheJdkRegexEngine() {
        FleetRules.neverUsesTheJdkRegexEngine("dev.fleet.observer..").check(PRODUCT);
    }
}
