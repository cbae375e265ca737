package dev.fleet.architecture;

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
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The rules of {@link FleetRules} and {@link DomainPurityRules}, applied to the product's compiled
 * classes (tests excluded).
 */
class ArchitectureTest {

    static final JavaClasses PRODUCT = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.fleet");

    /** The in-port an assessment comes through; everything else on its path is found from it (AssessmentPath). */
    static final String ASSESSMENT_PORT = "dev.fleet.domain.port.in.AssessFleetInventoryUseCase";
    /** The in-port of the host's inventory ({@code fleet host}): read-only too, so on the same path. */
    static final String HOST_INVENTORY_PORT = "dev.fleet.domain.port.in.HostInventoryUseCase";

    static final Set<String> WRITE_PORT = Set.of("dev.fleet.domain.port.out.RegistryWriter",
            "dev.fleet.registry.sqlite.SqliteRegistryWriter", "dev.fleet.registry.postgresql.PostgresRegistryWriter");
    static final Set<String> WRITE_SIDE = Set.of("dev.fleet.registry.sqlite.SqliteRegistryWriter",
            "dev.fleet.registry.sqlite.RegistrationTransaction", "dev.fleet.registry.sqlite.SchemaMigration",
            "dev.fleet.registry.schema.RegistryChangelog", "dev.fleet.registry.schema.RegistryWrites",
            "dev.fleet.registry.postgresql.PostgresRegistryWriter", "dev.fleet.registry.postgresql.PostgresMigration");
    static final Set<String> WRITE_SIDE_AND_PORT = union(WRITE_PORT, WRITE_SIDE);
    /** The write statements both engines share, and the writers that alone run them. */
    static final Set<String> SHARED_WRITES = Set.of("dev.fleet.registry.schema.RegistryWrites");
    static final Set<String> WRITERS = Set.of("dev.fleet.registry.sqlite.SqliteRegistryWriter",
            "dev.fleet.registry.sqlite.RegistrationTransaction", "dev.fleet.registry.postgresql.PostgresRegistryWriter");
    /**
     * A server's lifecycle (the domain's application service), the composition root that builds it,
     * and the operator's explicit `fleet registry migrate`. No adapter drives the write port itself.
     * These may read evidence too (a server observes its own start), and are never on the
     * assessment path.
     */
    static final Set<String> LIFECYCLE = Set.of("dev.fleet.domain.registration.ServerLifecycleService",
            "dev.fleet.domain.registration.OwnRow", "dev.fleet.domain.registration.StopWrite",
            "dev.fleet.cli.serve.ServeCommand", "dev.fleet.cli.registry.RegistryMigrateCommand");
    static final DescribedPredicate<JavaClass> ASSESSMENT_PATH = new AssessmentPath(
            Set.of(ASSESSMENT_PORT, HOST_INVENTORY_PORT), FleetRules.OUT_PORTS, LIFECYCLE);

    /** jOOQ's generated classes (the registry's codegen target): the generator lays out their packages. */
    static final String GENERATED = "dev.fleet.registry.schema.jooq..";

    /**
     * The demo's launcher, the one place that starts processes: the CLI's demo package (the demo
     * verb only builds the command lines it starts).
     */
    static final String DEMO = "dev\\.fleet\\.cli\\.demo\\..*";

    /**
     * The server a member wraps (the contract, §12): the one other class that starts a process, and
     * the one that ends any, only that server's own tree.
     */
    static final String SERVED_CHILD = "dev.fleet.mcp.relay.ServedChild";

    /** Who may start a process: the demo's launcher and {@link #SERVED_CHILD}. */
    static final String STARTERS = DEMO + "|" + SERVED_CHILD.replace(".", "\\.");

    /** The CLI's output printer, and the MCP stdio transport and relay that own stdout while serving. */
    static final Set<String> STDOUT_OWNERS = Set.of("dev.fleet.cli.StandardStreams", "dev.fleet.mcp.stdio.StdioServer",
            "dev.fleet.mcp.relay.RelayServer");

    /**
     * The rules name classes as text; a class renamed or moved would silently drop out of its rule.
     * So every name must still be a product class.
     */
    @Test
    void everyClassTheRulesNameExists() {
        Set<String> named = new java.util.TreeSet<>();
        named.add(ASSESSMENT_PORT);
        named.add(HOST_INVENTORY_PORT);
        List.of(WRITE_PORT, WRITE_SIDE, SHARED_WRITES, WRITERS, LIFECYCLE, STDOUT_OWNERS).forEach(named::addAll);
        named.add(SERVED_CHILD);
        List<String> missing = named.stream().filter(name -> !PRODUCT.contain(name)).toList();
        assertTrue(missing.isEmpty(), "the rules name classes that no longer exist: " + missing);
        assertTrue(PRODUCT.stream().anyMatch(JavaClass.Predicates.resideInAPackage(GENERATED)::test),
                "no class in the generated package " + GENERATED);
    }

    /**
     * The assessment path is found by structure; should that stop finding what it must (a port
     * moved, a verb that only builds a service), the reach rule would pass on less. So the path
     * holds, at least, the in-port's service, every implementation of the evidence ports, and the
     * verbs and the tool that a hand list once named (by simple name: packages may move).
     */
    @Test
    void theAssessmentPathIsFoundByStructure() {
        Set<String> path = new java.util.TreeSet<>();
        PRODUCT.that(ASSESSMENT_PATH).forEach(javaClass -> path.add(javaClass.getSimpleName()));
        Set<String> expected = new java.util.TreeSet<>(Set.of("AssessFleetInventoryService", "AssessCommand",
                "AssessFleetInventoryTool", "ProcessesCommand", "RegistryListCommand", "MetricsScrape",
                "PostgresRegistryReader", "HostInventoryService"));
        for (String port : List.of("dev.fleet.domain.port.out.RegistryEvidence",
                "dev.fleet.domain.port.out.ProcessObserver")) {
            Set<JavaClass> implementations = PRODUCT.get(port).getAllSubclasses();
            assertTrue(!implementations.isEmpty(), port + " has an implementation");
            implementations.forEach(implementation -> expected.add(implementation.getSimpleName()));
        }
        // The host inventory's readers, whichever exist (the configuration readers and the observer's table).
        for (String port : List.of("dev.fleet.domain.port.out.ClientConfigurations",
                "dev.fleet.domain.port.out.HostProcessTable")) {
            PRODUCT.get(port).getAllSubclasses().forEach(implementation -> expected.add(implementation.getSimpleName()));
        }
        expected.removeAll(path);
        assertTrue(expected.isEmpty(), "not found on the assessment path: " + expected + " (found: " + path + ")");
    }

    private static Set<String> union(Set<String> first, Set<String> second) {
        Set<String> all = new java.util.HashSet<>(first);
        all.addAll(second);
        return Set.copyOf(all);
    }

    @Test
    void everyModuleIsImported() {
        for (String pkg : new String[] {"dev.fleet.domain", "dev.fleet.registry.schema", "dev.fleet.registry.sqlite",
                "dev.fleet.registry.postgresql", "dev.fleet.observer", "dev.fleet.mcp", "dev.fleet.cli",
                "dev.fleet.metrics", "dev.fleet.http", "dev.fleet.dashboard", "dev.fleet.clientconfig"}) {
            assertTrue(PRODUCT.stream().anyMatch(javaClass -> javaClass.getPackageName().equals(pkg)
                    || javaClass.getPackageName().startsWith(pkg + ".")), pkg);
        }
    }

    // One rule per test: a test stops at its first failed check, so two rules in one test would
    // let a broken rule hide another (EveryTestChecksOneRuleTest keeps it so).

    @Test
    void theDomainDependsOnlyOnTheJdk() {
        DomainPurityRules.dependsOnlyOnTheJdk(FleetRules.DOMAIN).check(PRODUCT);
    }

    @Test
    void theDomainDoesNoIo() {
        DomainPurityRules.doesNoIo(FleetRules.DOMAIN).check(PRODUCT);
    }

    @Test
    void theClassifierIsPure() {
        DomainPurityRules.classifierIsPure("dev.fleet.domain.verdict..").check(PRODUCT);
    }

    /** fleet host's classification is as pure as the verdict's: the same snapshot gives the same bytes (§14). */
    @Test
    void theHostClassifierIsPure() {
        DomainPurityRules.classifierIsPure("dev.fleet.domain.host..").check(PRODUCT);
    }

    @ParameterizedTest
    @FieldSource("dev.fleet.architecture.FleetRules#ADAPTERS")
    void anAdapterKnowsNoOtherAdapterNorTheCompositionRoot(String adapter) {
        FleetRules.adapterIsIndependent(adapter, FleetRules.ADAPTERS, FleetRules.COMPOSITION_ROOT).check(PRODUCT);
    }

    @ParameterizedTest
    @FieldSource("dev.fleet.architecture.FleetRules#SHARED")
    void whatAdaptersShareKnowsNoAdapter(String shared) {
        FleetRules.sharedKnowsNoAdapter(shared, FleetRules.ADAPTERS, FleetRules.COMPOSITION_ROOT).check(PRODUCT);
    }

    @Test
    void theExpositionKnowsOnlyTheDomain() {
        FleetRules.expositionKnowsOnlyTheDomain(FleetRules.EXPOSITION, FleetRules.DOMAIN, FleetRules.PROMETHEUS)
                .check(PRODUCT);
    }

    @Test
    void onlyTheExpositionNamesPrometheus() {
        FleetRules.onlyTheExpositionNamesPrometheus("dev.fleet..", FleetRules.EXPOSITION, FleetRules.PROMETHEUS)
                .check(PRODUCT);
    }

    @Test
    void theMessageLayerKnowsNoTransport() {
        FleetRules.messageLayerKnowsNoTransport(FleetRules.MESSAGE_LAYER, FleetRules.ON_THE_MESSAGE_LAYER).check(PRODUCT);
    }

    @Test
    void noPackagesFormACycle() {
        FleetRules.packagesAreFreeOfCycles("dev.fleet", GENERATED).check(PRODUCT);
    }

    @Test
    void adaptersUsePortsNotServices() {
        FleetRules.adaptersUsePortsNotServices(FleetRules.ADAPTERS, FleetRules.DOMAIN, FleetRules.IN_PORTS)
                .check(PRODUCT);
    }

    @Test
    void onlyTheCompositionRootBuildsServices() {
        FleetRules.onlyTheCompositionRootBuildsServices(FleetRules.COMPOSITION_ROOT, FleetRules.DOMAIN,
                FleetRules.IN_PORTS).check(PRODUCT);
    }

    static List<Arguments> portSides() {
        return List.of(Arguments.of(FleetRules.IN_PORTS, FleetRules.OUT_PORTS),
                Arguments.of(FleetRules.OUT_PORTS, FleetRules.IN_PORTS));
    }

    @ParameterizedTest
    @MethodSource("portSides")
    void inPortsAndOutPortsIgnoreEachOther(String ports, String otherPorts) {
        FleetRules.portsIgnoreTheOtherSide(ports, otherPorts).check(PRODUCT);
    }

    @Test
    void nothingIsDestroyed() {
        FleetRules.nothingIsDestroyed(SERVED_CHILD).check(PRODUCT);
    }

    @Test
    void onlyTheDemoStartsProcesses() {
        FleetRules.onlyTheDemoStartsProcesses(STARTERS).check(PRODUCT);
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
    void onlyTheWritersRunTheSharedWrites() {
        FleetRules.onlyTheWritersRunTheWrites(SHARED_WRITES, WRITERS).check(PRODUCT);
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
