package dev.fleet.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code fleet registry migrate|list}: the runtime registry itself. */
@Command(name = "registry",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.USAGE_LINE},
        description = "Create or inspect the runtime registry.",
        subcommands = {RegistryMigrateCommand.class, RegistryListCommand.class})
final class RegistryCommand extends FleetVerb implements Callable<Integer> {

    @Override
    public Integer call() {
        return usage();
    }
}
