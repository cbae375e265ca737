package dev.fleet.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * Promise 1, the domain's purity, as rules: it knows no library, does no I/O, and its classifier reads
 * nothing that could make two callers of the same snapshot get two verdicts. Factories over package
 * names, like the rest of {@link FleetRules}, so that a fixture can break each one.
 */
final class DomainPurityRules {

    /** File, socket, database and process APIs: what "no I/O" means for the domain. */
    static final List<String> IO_PACKAGES = List.of("java.nio.file..", "java.net..", "java.sql..", "javax.sql..");
    static final Set<String> IO_CLASSES = Set.of("java.io.File", "java.io.FileInputStream", "java.io.FileOutputStream",
            "java.io.FileReader", "java.io.FileWriter", "java.io.RandomAccessFile", "java.io.FileDescriptor",
            "java.lang.ProcessHandle", "java.lang.ProcessBuilder", "java.lang.Process", "java.lang.Runtime");
    /**
     * A file's name, which ports may pass (the configuration files {@code fleet host} is asked to read):
     * naming a file reads nothing. Reading it takes {@code Files} or a channel, which stay forbidden.
     */
    static final Set<String> NAMES_NOT_IO = Set.of("java.nio.file.Path");

    private DomainPurityRules() {
    }

    /** Promise 1a: the classifier is pure, and the domain can be read without knowing any library. */
    static ArchRule dependsOnlyOnTheJdk(String domain) {
        return classes().that().resideInAPackage(domain)
                .should().onlyDependOnClassesThat().resideInAnyPackage(domain, "java..")
                .because("the domain depends on nothing beyond the JDK");
    }

    /** Promise 1b: the domain does no I/O; evidence reaches it only through its ports. */
    static ArchRule doesNoIo(String domain) {
        return noClasses().that().resideInAPackage(domain)
                .should().dependOnClassesThat(describe("do I/O (files, network, SQL, processes)",
                        target -> IO_CLASSES.contains(target.getName())
                                || !NAMES_NOT_IO.contains(target.getName()) && IO_PACKAGES.stream().anyMatch(pkg -> target.getPackageName().startsWith(
                                        pkg.substring(0, pkg.length() - 2)))))
                .because("the verdict is a pure function of the snapshot");
    }

    /**
     * Promise 1c: the classifier is a pure, deterministic function of the snapshot: it reads no
     * clock, no randomness, no environment and no standard stream.
     */
    static ArchRule classifierIsPure(String classifierPackage) {
        return noClasses().that().resideInAPackage(classifierPackage)
                .should().accessTargetWhere(describe("read a clock, randomness, the environment or a standard stream",
                        (JavaAccess<?> access) -> IMPURE.stream().anyMatch(impure -> impure.test(access))))
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.util.Random")
                .because("every caller must get the same verdict from the same snapshot");
    }

    private static final List<Predicate<JavaAccess<?>>> IMPURE = List.of(
            access -> access.getTargetOwner().isEquivalentTo(System.class) && Set.of("out", "err", "in",
                    "currentTimeMillis", "nanoTime", "getenv", "getProperty", "getProperties")
                    .contains(access.getName()),
            access -> access.getName().equals("now") && access.getTargetOwner().getPackageName().equals("java.time"),
            access -> access.getTargetOwner().getPackageName().equals("java.time")
                    && Set.of("Clock", "InstantSource").contains(access.getTargetOwner().getSimpleName())
                    && access.getName().startsWith("system"),
            access -> access.getTargetOwner().isEquivalentTo(UUID.class)
                    && access.getName().equals("randomUUID"),
            access -> access.getTargetOwner().isEquivalentTo(Math.class) && access.getName().equals("random"),
            access -> access.getTargetOwner().getName().equals("java.util.concurrent.ThreadLocalRandom"));
}
