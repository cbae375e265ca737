package dev.fleet.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnitAccess;
import com.tngtech.archunit.core.domain.JavaConstructorCall;
import com.tngtech.archunit.core.domain.JavaConstructorReference;
import com.tngtech.archunit.core.domain.PackageMatcher;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.conditions.ArchConditions;
import java.io.FileDescriptor;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The architecture rules. Each is a factory over package and class names, so a test can apply it
 * both to the product and to a fixture that breaks it: a rule that cannot fail is a defect. The
 * domain's own purity (promise 1) is {@link DomainPurityRules}'.
 */
final class FleetRules {

    static final String DOMAIN = "dev.fleet.domain..";
    static final String PORTS = "dev.fleet.domain.port..";
    static final String IN_PORTS = "dev.fleet.domain.port.in..";
    static final String OUT_PORTS = "dev.fleet.domain.port.out..";
    /** One package per adapter module: the two registry adapters are two adapters, apart like any others. */
    static final List<String> ADAPTERS = List.of("dev.fleet.registry.sqlite..", "dev.fleet.registry.postgresql..",
            "dev.fleet.observer..", "dev.fleet.mcp..", "dev.fleet.dashboard..", "dev.fleet.clientconfig..");
    /**
     * What several adapters stand on without being one: the registry's schema (fleet-registry-schema),
     * beneath both registry adapters, and the HTTP surface (fleet-http), beneath the MCP endpoint and the dashboard.
     */
    static final List<String> SHARED = List.of("dev.fleet.registry.schema..", "dev.fleet.http..");
    static final String COMPOSITION_ROOT = "dev.fleet.cli..";
    /**
     * The metrics exposition (fleet-metrics): no adapter, but what the CLI and the MCP adapter's
     * HTTP endpoint both write metrics with, so neither depends on the other.
     */
    static final String EXPOSITION = "dev.fleet.metrics..";
    static final String PROMETHEUS = "io.prometheus..";
    /** The one JSON-RPC message layer of the MCP adapter: its ids and its error envelope. */
    static final String MESSAGE_LAYER = "dev.fleet.mcp.jsonrpc..";
    /** What stands on that layer: fleet's MCP server and each transport (stdio, HTTP, the relay, the 2026 era). */
    static final List<String> ON_THE_MESSAGE_LAYER = List.of("dev.fleet.mcp", "dev.fleet.mcp.stdio..",
            "dev.fleet.mcp.relay..", "dev.fleet.mcp.http..", "dev.fleet.mcp.modern..");

    private FleetRules() {
    }

    /**
     * Promise 2: adapters meet only in the composition root; {@code adapter} knows the domain and
     * nothing else of ours (one rule per adapter, so each coupling is its own failure).
     */
    static ArchRule adapterIsIndependent(String adapter, List<String> adapters, String compositionRoot) {
        return noClasses().that().resideInAPackage(adapter)
                .should().dependOnClassesThat().resideInAnyPackage(Stream.concat(
                        adapters.stream().filter(other -> !other.equals(adapter)), Stream.of(compositionRoot))
                        .toArray(String[]::new))
                .because("adapters depend on the domain, never on each other or on the composition root");
    }

    /**
     * Promise 2a: what several adapters share ({@code shared}, the registry's schema) knows none of them
     * nor the composition root, so an adapter can change or be dropped without it.
     */
    static ArchRule sharedKnowsNoAdapter(String shared, List<String> adapters, String compositionRoot) {
        return noClasses().that().resideInAPackage(shared)
                .should().dependOnClassesThat().resideInAnyPackage(Stream.concat(adapters.stream(),
                        Stream.of(compositionRoot)).toArray(String[]::new))
                .because("adapters share it; a shared module that knew an adapter would couple them");
    }

    /**
     * The JSON-RPC message layer ({@code layer}) knows none of what stands on it ({@code above}): one
     * layer under every transport, which no transport's habits leak into.
     */
    static ArchRule messageLayerKnowsNoTransport(String layer, List<String> above) {
        return noClasses().that().resideInAPackage(layer)
                .should().dependOnClassesThat().resideInAnyPackage(above.toArray(String[]::new))
                .because("stdio, HTTP and the relay stand on one JSON-RPC layer; a layer that knew one would be its part");
    }

    /**
     * Promise 2b: no package depends, directly or around a loop, on a package that depends on it;
     * every package under {@code root} is a slice, so a cycle between two packages of one module
     * counts as much as one between modules. Dependencies inside {@code generated} (a code
     * generator's output, laid out by the generator) are not ours to untangle and are ignored.
     */
    static ArchRule packagesAreFreeOfCycles(String root, String generated) {
        DescribedPredicate<JavaClass> isGenerated = JavaClass.Predicates.resideInAPackage(generated);
        return slices().matching(root + ".(**)").namingSlices(root + ".$1")
                .should().beFreeOfCycles()
                .ignoreDependency(isGenerated, isGenerated)
                .because("a package in a cycle cannot be read, changed or moved without the others");
    }

    /**
     * A domain service, found by structure: a class of {@code domain} that implements an in-port
     * (an interface in {@code inPorts}), directly or through a supertype.
     */
    static DescribedPredicate<JavaClass> services(String domain, String inPorts) {
        PackageMatcher domainPackages = PackageMatcher.of(domain);
        PackageMatcher inPortPackages = PackageMatcher.of(inPorts);
        return describe("are domain services (domain classes implementing an in-port)",
                javaClass -> !javaClass.isInterface() && domainPackages.matches(javaClass.getPackageName())
                        && javaClass.getAllRawInterfaces().stream()
                                .anyMatch(port -> inPortPackages.matches(port.getPackageName())));
    }

    /**
     * Promise 2c: adapters drive the domain through its in-ports, never through a service (not
     * even for a constant: a constant the adapter needs belongs on the port).
     */
    static ArchRule adaptersUsePortsNotServices(List<String> adapters, String domain, String inPorts) {
        return noClasses().that().resideInAnyPackage(adapters.toArray(String[]::new))
                .should().dependOnClassesThat(services(domain, inPorts))
                .because("which service answers a port is the composition root's choice, not the adapter's");
    }

    /**
     * Promise 2d: only the composition root builds a service (a constructor call or a {@code ::new}
     * reference); a service's own {@code this(...)} and {@code super(...)} are not a second wiring.
     */
    static ArchRule onlyTheCompositionRootBuildsServices(String compositionRoot, String domain, String inPorts) {
        DescribedPredicate<JavaClass> service = services(domain, inPorts);
        PackageMatcher root = PackageMatcher.of(compositionRoot);
        return noClasses().that(describe("are neither the composition root nor a service",
                        (JavaClass javaClass) -> !root.matches(javaClass.getPackageName())
                                && !service.test(outermost(javaClass))))
                .should().accessTargetWhere(describe("construct a domain service",
                        (JavaAccess<?> access) -> (access instanceof JavaConstructorCall
                                || access instanceof JavaConstructorReference)
                                && service.test(access.getTargetOwner())))
                .because("the composition root alone decides which service answers each in-port");
    }

    /**
     * Promise 7c: what the domain offers (in-ports) and what it needs (out-ports) are separate
     * contracts: the ports in {@code ports} never name one in {@code otherPorts} (one rule per
     * direction, so each is its own failure).
     */
    static ArchRule portsIgnoreTheOtherSide(String ports, String otherPorts) {
        return noClasses().that().resideInAPackage(ports)
                .should().dependOnClassesThat().resideInAPackage(otherPorts)
                .because("in-ports and out-ports change for different clients; neither may name the other");
    }

    /**
     * Promise 3a: the tool never terminates anything, duplicates included (calls and method
     * references); only {@code servedChild} ends a process, and only the server a member wraps, with
     * what it started (the contract, §12).
     */
    static ArchRule nothingIsDestroyed(String servedChild) {
        return noClasses().that().doNotHaveFullyQualifiedName(servedChild).should().accessTargetWhere(describe("destroy or destroyForcibly a process",
                        (JavaAccess<?> access) -> access instanceof JavaCodeUnitAccess<?>
                                && Set.of("destroy", "destroyForcibly").contains(access.getName())
                                && (access.getTargetOwner().isAssignableTo(Process.class)
                                        || access.getTargetOwner().isAssignableTo(ProcessHandle.class))))
                .because("fleet observes; it never terminates a process but the server a member wraps");
    }

    /**
     * Promise 3b: only the demo and a member's wrapped server launch processes ({@code starters}, a
     * regular expression of class names), so no other code path can spawn a kill.
     */
    static ArchRule onlyTheDemoStartsProcesses(String demoClasses) {
        return noClasses().that().haveNameNotMatching(demoClasses)
                .should().accessTargetWhere(describe("start a process (ProcessBuilder.start/startPipeline, "
                                + "Runtime.exec)",
                        (JavaAccess<?> access) -> access instanceof JavaCodeUnitAccess<?>
                                && ((Set.of("start", "startPipeline").contains(access.getName())
                                        && access.getTargetOwner().isAssignableTo(ProcessBuilder.class))
                                || (access.getName().equals("exec")
                                        && access.getTargetOwner().isAssignableTo(Runtime.class)))))
                .because("nothing outside the demo launcher and a member's wrapped server starts a process");
    }

    /**
     * Promise 4a: nothing on the assessment path (see {@link AssessmentPath}, found by structure)
     * can reach a registry write, DML/DDL or Liquibase.
     */
    static ArchRule assessmentPathCannotWrite(DescribedPredicate<JavaClass> assessmentPath, String ourCode,
            Set<String> writeClasses) {
        return classes().that(assessmentPath)
                .should(new CannotReachWrites(ourCode, writeClasses))
                .because("an assessment is strictly read-only");
    }

    /** Promise 4b: SQL that changes data or schema, and Liquibase, live only in the registry's write side. */
    static ArchRule onlyTheWriteSideWrites(Set<String> writeSide) {
        return noClasses().that(describe("are not the registry's write side",
                        (JavaClass javaClass) -> !writeSide.contains(outermost(javaClass).getName())))
                .should().accessTargetWhere(CannotReachWrites.SQL_WRITE)
                .orShould().dependOnClassesThat().resideInAPackage("liquibase..")
                .because("only the registry's write side migrates or modifies the registry");
    }

    /** Promise 4c: only a server's own lifecycle (and the explicit migrate verb) writes the registry. */
    static ArchRule onlyTheLifecycleUsesTheWritePort(Set<String> writePortTypes, Set<String> allowedUsers) {
        return noClasses().that(describe("are not the server lifecycle",
                        (JavaClass javaClass) -> !allowedUsers.contains(outermost(javaClass).getName())
                                && !writePortTypes.contains(outermost(javaClass).getName())))
                .should().dependOnClassesThat(describe("are the registry's write port",
                        (JavaClass target) -> writePortTypes.contains(target.getName())))
                .because("registry writes belong to a server's own lifecycle");
    }

    /**
     * Promise 4c, below the port: the registry's write statements, shared by both engines, run only
     * inside the engines' writers, whose locks, retries and busy rules they rely on.
     */
    static ArchRule onlyTheWritersRunTheWrites(Set<String> writes, Set<String> writers) {
        return noClasses().that(describe("are not a registry writer",
                        (JavaClass javaClass) -> !writers.contains(outermost(javaClass).getName())
                                && !writes.contains(outermost(javaClass).getName())))
                .should().dependOnClassesThat(describe("are the registry's write statements",
                        (JavaClass target) -> writes.contains(target.getName())))
                .because("a write outside the writers escapes their locks, retries and busy rules");
    }

    /** Promise 6: on stdio, stdout is protocol; only the CLI's printer and the stdio transport may touch it. */
    static ArchRule onlyThePrinterTouchesStdout(Set<String> allowed) {
        return noClasses().that(describe("are not the output printer or the stdio transport",
                        (JavaClass javaClass) -> !allowed.contains(outermost(javaClass).getName())))
                .should().accessField(System.class, "out")
                .orShould().accessField(FileDescriptor.class, "out")
                .because("a stray line on stdout corrupts the MCP stdio stream");
    }

    /** Promise 7a: ports are interfaces owned by the domain. */
    static ArchRule portsAreInterfaces(String ports) {
        return classes().that().resideInAPackage(ports).and().areNotNestedClasses()
                .should().beInterfaces()
                .because("ports are interfaces in the domain; adapters implement them");
    }

    /** Promise 7b: outbound ports are implemented by adapters, never inside the domain. */
    static ArchRule outPortsAreImplementedByAdapters(String outPorts, String domain) {
        String outPortPackage = outPorts.substring(0, outPorts.length() - 2);
        return noClasses().that().resideInAPackage(domain).and().areNotInterfaces()
                .should(ArchConditions.<JavaClass>be(describe("an implementation of an outbound port",
                        (JavaClass javaClass) -> javaClass.getAllRawInterfaces().stream()
                                .anyMatch(port -> port.getPackageName().startsWith(outPortPackage)))))
                .because("the domain declares what it needs; adapters provide it");
    }

    /** String methods that compile their argument with {@code java.util.regex}. */
    static final Set<String> STRING_REGEX_METHODS = Set.of("matches", "replaceAll", "replaceFirst", "split");

    /**
     * Promise 9a: the exposition turns verdicts into metrics and knows nothing but the domain, the
     * JDK and the Prometheus client: it may be shared by adapters because it is none itself.
     */
    static ArchRule expositionKnowsOnlyTheDomain(String exposition, String domain, String prometheus) {
        return classes().that().resideInAPackage(exposition)
                .should().onlyDependOnClassesThat().resideInAnyPackage(exposition, domain, prometheus, "java..")
                .because("adapters share the exposition; an exposition that knew an adapter would couple them");
    }

    /**
     * Promise 9b: only the exposition names the Prometheus client, so no other class can load it on
     * a path that does not ask for metrics (a text or JSON assessment's cold start stays as it was).
     */
    static ArchRule onlyTheExpositionNamesPrometheus(String root, String exposition, String prometheus) {
        return noClasses().that().resideInAPackage(root).and().resideOutsideOfPackage(exposition)
                .should().dependOnClassesThat().resideInAPackage(prometheus)
                .because("the Prometheus client loads for the metrics formats only, through the exposition");
    }

    /**
     * Promise 8: a command line is written by whoever starts the process, so in the observer text
     * meets only the linear-time engine (RE2J): no {@code java.util.regex}, whether named, reached
     * through {@link java.util.Scanner}, or through String's regex methods (calls and references).
     */
    static ArchRule neverUsesTheJdkRegexEngine(String observer) {
        return noClasses().that().resideInAPackage(observer)
                .should().dependOnClassesThat(describe("are java.util.regex or java.util.Scanner",
                        (JavaClass target) -> target.getPackageName().equals("java.util.regex")
                                || target.getName().equals("java.util.Scanner")))
                .orShould().accessTargetWhere(describe("call or reference String.matches, replaceAll, replaceFirst "
                                + "or split",
                        (JavaAccess<?> access) -> access instanceof JavaCodeUnitAccess<?>
                                && access.getTargetOwner().isEquivalentTo(String.class)
                                && STRING_REGEX_METHODS.contains(access.getName())))
                .because("no crafted argv may make an assessment hang: only RE2J, linear in time, reads text here");
    }

    static JavaClass outermost(JavaClass javaClass) {
        JavaClass current = javaClass;
        while (current.getEnclosingClass().isPresent()) {
            current = current.getEnclosingClass().get();
        }
        return current;
    }
}
