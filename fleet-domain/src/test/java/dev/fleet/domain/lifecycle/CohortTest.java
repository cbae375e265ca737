package dev.fleet.domain.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.fleet.domain.CohortSource;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class CohortTest {

    private static final Map<String, String> NO_ENV = Map.of();

    @Test
    void theEnvironmentNamesTheCohortAndWinsOverTheParent() {
        Cohort cohort = Cohort.resolve(Map.of(Cohort.ENV_VARIABLE, "  client-7\n"), true, OptionalLong.of(4_242));

        assertEquals(new Cohort.FromEnv("client-7"), cohort);
        assertEquals("client-7", cohort.id());
        assertEquals(CohortSource.ENV, cohort.source());
    }

    @Test
    void withCohortFromParentTheParentPidNamesIt() {
        Cohort cohort = Cohort.resolve(NO_ENV, true, OptionalLong.of(4_242));

        assertEquals("ppid:4242", cohort.id());
        assertEquals(CohortSource.PARENT_PROCESS, cohort.source());
    }

    @Test
    void aBlankEnvironmentValueDoesNotCount() {
        assertEquals("ppid:9", Cohort.resolve(Map.of(Cohort.ENV_VARIABLE, "   "), true, OptionalLong.of(9)).id());
        assertInstanceOf(Cohort.Unknown.class, Cohort.resolve(Map.of(Cohort.ENV_VARIABLE, ""), false, OptionalLong.of(9)));
    }

    @Test
    void otherwiseTheCohortIsUnknown() {
        Cohort withoutFlag = Cohort.resolve(NO_ENV, false, OptionalLong.of(4_242));
        Cohort withoutParent = Cohort.resolve(NO_ENV, true, OptionalLong.empty());

        for (Cohort cohort : new Cohort[] {withoutFlag, withoutParent}) {
            assertInstanceOf(Cohort.Unknown.class, cohort);
            assertNull(cohort.id());
            assertEquals(CohortSource.UNKNOWN, cohort.source());
        }
    }
}
