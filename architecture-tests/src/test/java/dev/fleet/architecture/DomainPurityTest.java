package dev.fleet.architecture;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

class DomainPurityTest {

    private static final JavaClasses DOMAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.fleet.domain");

    @Test
    void theDomainDependsOnlyOnTheJdk() {
        assertTrue(DOMAIN.size() > 20, "the domain's classes are imported");
        FleetRules.dependsOnlyOnTheJdk(FleetRules.DOMAIN).check(DOMAIN);
    }

    @Test
    void theRuleReportsADomainClassThatUsesALibrary() {
        JavaClasses fixture = new ClassFileImporter().importPackages("dev.fleet.architecture.fixtures.impuredomain");
        AssertionError violation = assertThrows(AssertionError.class,
                () -> FleetRules.dependsOnlyOnTheJdk("dev.fleet.architecture.fixtures.impuredomain..").check(fixture));
        assertTrue(violation.getMessage().contains("org.junit"), violation.getMessage());
    }
}
