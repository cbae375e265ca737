package dev.fleet.cli.exit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.fleet.cli.FleetCli;
import dev.fleet.registry.schema.RegistryStorageException;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class ExitCodesTest {

    @Test
    void theOperatorsProblemsAreUsageAndAnythingElseIsABug() {
        assertEquals(2, ExitCodes.of(new ConfigurationException("bad roster")));
        assertEquals(2, ExitCodes.of(new RegistryStorageException("not a regular file", null)));
        assertEquals(70, ExitCodes.of(new IllegalStateException("a bug")));
        assertEquals(70, ExitCodes.of(new NullPointerException()));
    }

    @Test
    void everyVerbsHelpListsItsExitCodes() {
        everyCommand(FleetCli.commandLine("help"));
    }

    private static void everyCommand(CommandLine command) {
        assertFalse(command.getCommandSpec().usageMessage().exitCodeList().isEmpty(),
                command.getCommandSpec().qualifiedName() + " lists no exit code");
        command.getSubcommands().values().forEach(ExitCodesTest::everyCommand);
    }
}
