package dev.fleet.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import dev.fleet.architecture.fixtures.tworules.TwoRulesInOne;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;

/**
 * A test stops at its first failed check, so a test that checks two rules lets a broken rule hide
 * another (issue 10 item 9). Every architecture test checks exactly one rule, and this keeps it so.
 * It counts the {@code ArchRule.check} calls a test method makes itself (not inside a lambda or a
 * helper).
 */
class EveryTestChecksOneRuleTest {

    /** The test methods of {@code testClass} that do not check exactly one rule, with how many they check. */
    static Map<String, Long> testsNotCheckingExactlyOneRule(Class<?> testClass) {
        JavaClass javaClass = new ClassFileImporter().importClass(testClass);
        Map<String, Long> offenders = new TreeMap<>();
        for (JavaMethod method : javaClass.getMethods()) {
            if (method.isAnnotatedWith(Test.class) || method.isAnnotatedWith(ParameterizedTest.class)) {
                long checks = method.getMethodCallsFromSelf().stream()
                        .filter(call -> call.getName().equals("check")
                                && call.getTargetOwner().isAssignableTo(ArchRule.class))
                        .count();
                if (checks != 1) {
                    offenders.put(method.getName(), checks);
                }
            }
        }
        return offenders;
    }

    @Test
    void everyArchitectureTestChecksExactlyOneRule() {
        // The import, naming and assessment-path sanity checks are the three tests that check no rule.
        assertEquals(Map.of("everyModuleIsImported", 0L, "everyClassTheRulesNameExists", 0L,
                        "theAssessmentPathIsFoundByStructure", 0L),
                testsNotCheckingExactlyOneRule(ArchitectureTest.class));
    }

    @Test
    void aTestThatChecksTwoRulesIsReported() {
        assertEquals(Map.of("twoRules", 2L), testsNotCheckingExactlyOneRule(TwoRulesInOne.class));
    }
}
