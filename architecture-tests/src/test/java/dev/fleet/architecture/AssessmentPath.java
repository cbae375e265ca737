package dev.fleet.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.domain.JavaMethodReference;
import com.tngtech.archunit.core.domain.PackageMatcher;
import java.util.Set;

/**
 * The classes on the assessment path, found by structure rather than listed, so that a class that
 * joins the path (a {@code fleet watch} verb, an MCP resource that assesses) is covered without
 * editing a rule. The path starts at the read-only in-ports: the fleet's assessment, and the host's
 * inventory ({@code fleet host}), which reads the clients' configurations and the process table. A
 * class is on the path when it
 * <ul>
 *   <li>implements one of those in-ports (the domain's services),</li>
 *   <li>implements an out-port that such an implementation uses (the evidence ports: the
 *       registry's read side and the process observers),</li>
 *   <li>runs an assessment: calls or references a method of the in-port or of an implementation
 *       (a CLI verb, an MCP tool or resource), or</li>
 *   <li>reads the evidence itself: calls or references a method of an evidence port, of an
 *       implementation, or of another out-port such an implementation serves (the {@code processes}
 *       verb; the {@code registry list} verb through the listing port).</li>
 * </ul>
 * Building a service and handing it on (a constructor call, a parameter, a field) is wiring, not
 * the path. The classes that may use the write port (a server's lifecycle, and the composition
 * root that wires it) are never on it, though they read evidence too: a server reads its own start.
 */
final class AssessmentPath extends DescribedPredicate<JavaClass> {

    private final Set<String> readPorts;
    private final PackageMatcher outPorts;
    private final Set<String> writePortUsers;

    /** The path from the one in-port {@code assessmentPort}. */
    AssessmentPath(String assessmentPort, String outPorts, Set<String> writePortUsers) {
        this(Set.of(assessmentPort), outPorts, writePortUsers);
    }

    /**
     * @param readPorts the read-only in-ports' names (the assessment's, the host inventory's)
     * @param outPorts the out-ports' packages ({@code dev.fleet.domain.port.out..})
     * @param writePortUsers the outermost classes allowed to use the write port
     */
    AssessmentPath(Set<String> readPorts, String outPorts, Set<String> writePortUsers) {
        super("are on the assessment path (implement one of " + new java.util.TreeSet<>(readPorts)
                + " or an out-port one uses, or call one)");
        this.readPorts = Set.copyOf(readPorts);
        this.outPorts = PackageMatcher.of(outPorts);
        this.writePortUsers = writePortUsers;
    }

    @Override
    public boolean test(JavaClass javaClass) {
        if (writePortUsers.contains(FleetRules.outermost(javaClass).getName())) {
            return false;
        }
        if (!javaClass.isInterface() && (isAssessment(javaClass) || isEvidence(javaClass))) {
            return true;
        }
        return javaClass.getAccessesFromSelf().stream().anyMatch(this::runsOrReads);
    }

    private boolean runsOrReads(JavaAccess<?> access) {
        if (!(access instanceof JavaMethodCall || access instanceof JavaMethodReference)) {
            return false;
        }
        JavaClass owner = access.getTargetOwner();
        return isAssessment(owner) || isEvidence(owner) || servedByEvidence(owner);
    }

    /** An out-port that an evidence implementation also implements: the same reader, seen by another use. */
    private boolean servedByEvidence(JavaClass port) {
        return port.isInterface() && outPorts.matches(port.getPackageName())
                && port.getAllSubclasses().stream().anyMatch(this::isEvidence);
    }

    private boolean isAssessment(JavaClass javaClass) {
        return readPorts.stream().anyMatch(javaClass::isAssignableTo);
    }

    /** The class is, or implements, an out-port that an implementation of a read-only in-port depends on. */
    private boolean isEvidence(JavaClass javaClass) {
        return javaClass.getAllRawInterfaces().stream().anyMatch(this::isEvidencePort)
                || (javaClass.isInterface() && isEvidencePort(javaClass));
    }

    private boolean isEvidencePort(JavaClass port) {
        return outPorts.matches(port.getPackageName()) && port.getDirectDependenciesToSelf().stream()
                .map(dependency -> FleetRules.outermost(dependency.getOriginClass()))
                .anyMatch(user -> !user.isInterface() && isAssessment(user));
    }
}
