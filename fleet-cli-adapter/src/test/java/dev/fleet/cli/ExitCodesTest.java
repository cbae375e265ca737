package dev.fleet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fleet.registry.sqlite.RegistryStorageException;
import org.junit.jupiter.api.Test;

class ExitCodesTest {

    @Test
    void theOperatorsProblemsAreUsageAndAnythingElseIsABug() {
        assertEquals(2, ExitCodes.of(new ConfigurationException("bad roster")));
        assertEquals(2, ExitCodes.of(new RegistryStorageException("not a regular file", null)));
        assertEquals(70, ExitCodes.of(new IllegalStateException("a bug")));
        assertEquals(70, ExitCodes.of(new NullPointerException()));
    }
}
