package dev.fleet.cli;

import dev.fleet.registry.sqlite.RegistryStorageException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code fleet}: the composition root. Each verb wires the adapters it needs and nothing more. */
@Command(name = "fleet",
        mixinStandardHelpOptions = true,
        versionProvider = FleetCli.Version.class,
        description = "Prove an MCP server fleet is exactly the expected members, one cohort, one revision.",
        subcommands = {AssessCommand.class, ServeCommand.class, RegistryCommand.class, ProcessesCommand.class,
            RosterCommand.class, DemoCommand.class})
public final class FleetCli implements Callable<Integer> {

    /** Exit codes of SPEC §7. */
    static final int GATE_SATISFIED = 0;
    static final int GATE_NOT_SATISFIED = 1;
    static final int USAGE = 2;

    @Spec
    private CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String... args) {
        CommandLine cli = new CommandLine(new FleetCli())
                .setOut(StandardStreams.out())
                .setErr(StandardStreams.err())
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setParameterExceptionHandler(FleetCli::usageError)
                .setExecutionExceptionHandler((error, command, parsed) -> failure(error, command));
        try {
            return cli.execute(args);
        } finally {
            cli.getOut().flush();
            cli.getErr().flush();
        }
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return USAGE;
    }

    /** One line, never a stack trace; picocli's default would print the whole usage. */
    private static int usageError(ParameterException error, String[] args) {
        CommandLine command = error.getCommandLine();
        command.getErr().println("fleet: " + error.getMessage() + " (see '"
                + command.getCommandSpec().qualifiedName() + " --help')");
        return USAGE;
    }

    private static int failure(Exception error, CommandLine command) {
        PrintWriter err = command.getErr();
        if (error instanceof ConfigurationException || error instanceof RegistryStorageException) {
            err.println("fleet: " + error.getMessage());
        } else {
            err.println("fleet: unexpected " + error.getClass().getSimpleName() + ": " + error.getMessage());
        }
        return USAGE;
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = FleetCli.class.getPackage().getImplementationVersion();
            return new String[] {"fleet " + (version == null ? "(development build)" : version)};
        }
    }
}
