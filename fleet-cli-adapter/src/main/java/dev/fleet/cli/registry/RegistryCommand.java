package dev.fleet.cli.registry;

import dev.fleet.cli.exit.ExitCodes;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code fleet registry migrate|list}: the runtime registry itself. */
@Command(name = RegistryCommand.NAME,
        description = "Create or inspect the runtime registry.",
        subcommands = {RegistryMigrateCommand.class, RegistryListCommand.class})
public final class RegistryCommand implements Callable<Integer> {

    /** The verb's name, declared here once: {@code FleetCli} registers the verb by it. */
    public static final String NAME = "registry";

    @Spec
    private CommandSpec spec;

    /** {@code fleet registry} alone: one line naming its verbs, as every usage error is, not the whole help. */
    @Override
    public Integer call() {
        spec.commandLine().getErr().println("fleet: registry needs a verb: "
                + String.join(" or ", spec.subcommands().keySet()) + " (fleet registry --help says more)");
        return ExitCodes.USAGE;
    }
}
