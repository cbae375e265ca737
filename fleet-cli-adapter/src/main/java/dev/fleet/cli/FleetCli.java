package dev.fleet.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code fleet}: the composition root. Each verb wires the adapters it needs and nothing more. */
@Command(name = "fleet",
        mixinStandardHelpOptions = true,
        scope = ScopeType.INHERIT, // --help and --version on every verb, declared once
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:success; for assess, the mutation gate is satisfied",
            "1:the verb's answer is no: the gate is not satisfied, the registry is unreadable, a demo verdict was "
                    + "not seen", ExitCodes.USAGE_LINE, ExitCodes.INTERNAL_LINE,
            "130/143:serve or demo ended by SIGINT/SIGTERM"},
        versionProvider = FleetCli.Version.class,
        description = "Prove an MCP server fleet is exactly the expected members, one cohort, one revision.",
        subcommands = {AssessCommand.class, ServeCommand.class, RegistryCommand.class, ProcessesCommand.class,
            RosterCommand.class, DemoCommand.class, McpConfigCommand.class, CompletionCommand.class,
            CommandLine.HelpCommand.class})
public final class FleetCli implements Callable<Integer> {

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
                .setExitCodeExceptionMapper(ExitCodes::of)
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
        return ExitCodes.USAGE;
    }

    /** One line, never a stack trace; picocli's default would print the whole usage. */
    private static int usageError(ParameterException error, String[] args) {
        CommandLine command = error.getCommandLine();
        command.getErr().println("fleet: " + error.getMessage() + " (see '"
                + command.getCommandSpec().qualifiedName() + " --help')");
        return ExitCodes.USAGE;
    }

    /** One line, never a stack trace; the code says whose problem it is (see {@link ExitCodes#of}). */
    private static int failure(Exception error, CommandLine command) {
        PrintWriter err = command.getErr();
        int code = command.getExitCodeExceptionMapper().getExitCode(error);
        if (code == ExitCodes.USAGE) {
            err.println("fleet: " + error.getMessage());
        } else {
            err.println("fleet: internal error (a bug, please report it): " + error.getClass().getSimpleName() + ": "
                    + error.getMessage());
        }
        return code;
    }

    /**
     * {@code fleet --version}: the version and the git commit the jar was built from, as the build
     * recorded them in {@code build.properties}; "unknown" for what it could not tell.
     */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            Properties build = new Properties();
            try (InputStream in = FleetCli.class.getResourceAsStream("build.properties")) {
                if (in != null) {
                    build.load(new InputStreamReader(in, StandardCharsets.UTF_8));
                }
            } catch (IOException unreadable) {
                // Shown as unknown below: a version line is no reason to fail.
            }
            return new String[] {"fleet " + build.getProperty("version", "unknown") + " (commit "
                    + build.getProperty("commit", "unknown") + ")"};
        }
    }
}
