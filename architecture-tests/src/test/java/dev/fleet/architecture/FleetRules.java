package dev.fleet.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.lang.ArchRule;

/** The architecture rules, each a factory so it can be applied both to the product and to a fixture that breaks it. */
final class FleetRules {

    static final String DOMAIN = "dev.fleet.domain..";

    private FleetRules() {
    }

    /**
     * Promise: the classifier is a pure function and the domain can be read without knowing any
     * library. Classes in {@code packages} may use only the JDK and one another.
     */
    static ArchRule dependsOnlyOnTheJdk(String packages) {
        return classes().that().resideInAPackage(packages)
                .should().onlyDependOnClassesThat().resideInAnyPackage(packages, "java..")
                .because("the domain depends on nothing beyond the JDK");
    }
}
