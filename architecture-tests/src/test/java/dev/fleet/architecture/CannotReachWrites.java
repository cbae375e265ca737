package dev.fleet.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.describe;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaCodeUnitAccess;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Follows everything a class can reach in our code (its dependencies, and the implementations of
 * every interface and subclasses of every non-final class it reaches, since ports are wired at
 * run time) and fails if any reached class can write: a jOOQ DML/DDL or plain-SQL call or method
 * reference, a JDBC update, Liquibase, or one of the named write classes.
 *
 * <p>Its limit: only our own types are followed, so what the composition root hands the path as a
 * library type (a lambda, or one of our classes implementing a JDK interface such as
 * {@code BooleanSupplier}) is not, as no class on the path names it. The read side's driver-level
 * read-only connection (tested apart) stands behind this rule.
 */
final class CannotReachWrites extends ArchCondition<JavaClass> {

    static final Set<String> JOOQ_WRITE_METHODS = Set.of("insertInto", "update", "delete", "deleteFrom", "mergeInto",
            "createTable", "createTableIfNotExists", "createIndex", "createIndexIfNotExists", "alterTable",
            "dropTable", "dropTableIfExists", "dropIndex", "truncate", "truncateTable", "execute", "executeInsert",
            "executeUpdate", "executeDelete", "batch", "batchInsert", "batchUpdate", "batchDelete", "batchStore",
            "store", "insert", "transaction", "transactionResult");

    /**
     * JDBC calls that can change data or schema: {@code execute} runs any statement, the others
     * update or batch. A read calls {@code executeQuery}, which is not here.
     */
    static final Set<String> JDBC_WRITE_METHODS = Set.of("execute", "executeUpdate", "executeLargeUpdate",
            "executeBatch", "executeLargeBatch");

    /** A call or method reference that writes through jOOQ or JDBC. */
    static final DescribedPredicate<JavaAccess<?>> SQL_WRITE = describe("call or reference jOOQ DML/DDL, plain-SQL "
                    + "execute or a JDBC update",
            access -> access instanceof JavaCodeUnitAccess<?> && (
                    (JOOQ_WRITE_METHODS.contains(access.getName()) && issuesSql(access.getTargetOwner()))
                    || (JDBC_WRITE_METHODS.contains(access.getName())
                            && access.getTargetOwner().isAssignableTo("java.sql.Statement"))));

    /**
     * Whether a jOOQ method of {@code owner} issues SQL: writes go through a context, the static
     * DSL, a query, an updatable record or a batch. jOOQ's internal metadata factories (the
     * generated {@code Indexes} call {@code Internal.createIndex} to describe an index) touch no
     * database, so they are not writes.
     */
    private static boolean issuesSql(JavaClass owner) {
        return owner.isAssignableTo("org.jooq.DSLContext") || owner.isEquivalentTo(org.jooq.impl.DSL.class)
                || owner.isAssignableTo("org.jooq.Query") || owner.isAssignableTo("org.jooq.UpdatableRecord")
                || owner.isAssignableTo("org.jooq.Batch");
    }

    private final String ourCode;
    private final Set<String> writeClasses;

    /**
     * @param ourCode the package prefix followed when reaching ({@code dev.fleet})
     * @param writeClasses classes whose mere reach is a violation (the write port and its implementation)
     */
    CannotReachWrites(String ourCode, Set<String> writeClasses) {
        super("not reach a registry write, jOOQ DML/DDL or Liquibase");
        this.ourCode = ourCode;
        this.writeClasses = writeClasses;
    }

    @Override
    public void check(JavaClass root, ConditionEvents events) {
        Map<JavaClass, JavaClass> reachedFrom = new HashMap<>();
        Deque<JavaClass> queue = new ArrayDeque<>();
        reachedFrom.put(root, null);
        queue.add(root);
        while (!queue.isEmpty()) {
            JavaClass current = queue.poll();
            Optional<String> write = writeIn(current);
            if (write.isPresent()) {
                events.add(SimpleConditionEvent.violated(root, root.getName() + " reaches " + write.get()
                        + " via " + path(reachedFrom, current)));
                return;
            }
            for (JavaClass next : next(current)) {
                if (!reachedFrom.containsKey(next)) {
                    reachedFrom.put(next, current);
                    queue.add(next);
                }
            }
        }
        events.add(SimpleConditionEvent.satisfied(root, root.getName() + " reaches no write"));
    }

    private Iterable<JavaClass> next(JavaClass current) {
        java.util.List<JavaClass> next = new java.util.ArrayList<>();
        for (Dependency dependency : current.getDirectDependenciesFromSelf()) {
            JavaClass target = dependency.getTargetClass();
            if (target.getName().startsWith(ourCode)) {
                next.add(target);
            }
        }
        if (current.isInterface() || !current.getModifiers().contains(JavaModifier.FINAL)) {
            current.getAllSubclasses().stream().filter(impl -> impl.getName().startsWith(ourCode)).forEach(next::add);
        }
        return next;
    }

    private Optional<String> writeIn(JavaClass javaClass) {
        if (writeClasses.contains(javaClass.getName())) {
            return Optional.of(javaClass.getName());
        }
        for (JavaAccess<?> access : javaClass.getAccessesFromSelf()) {
            if (SQL_WRITE.test(access)) {
                return Optional.of(access.getDescription());
            }
        }
        for (Dependency dependency : javaClass.getDirectDependenciesFromSelf()) {
            if (dependency.getTargetClass().getPackageName().startsWith("liquibase")) {
                return Optional.of("Liquibase (" + dependency.getDescription() + ")");
            }
        }
        return Optional.empty();
    }

    private static String path(Map<JavaClass, JavaClass> reachedFrom, JavaClass end) {
        StringBuilder path = new StringBuilder(end.getSimpleName());
        for (JavaClass step = reachedFrom.get(end); step != null; step = reachedFrom.get(step)) {
            path.insert(0, step.getSimpleName() + " -> ");
        }
        return path.toString();
    }
}
