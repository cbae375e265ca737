package dev.fleet.cli;

import dev.fleet.cli.assess.AssessCommand;
import dev.fleet.cli.assess.DashboardCommand;
import dev.fleet.cli.assess.WaitCommand;
import dev.fleet.cli.assess.WatchCommand;
import dev.fleet.cli.completion.CompletionCommand;
import dev.fleet.cli.demo.DemoCommand;
import dev.fleet.cli.exit.ExitCodes;
import dev.fleet.cli.host.HostCommand;
import dev.fleet.cli.jar.BuildProperties;
import dev.fleet.cli.mcpconfig.McpConfigCommand;
import dev.fleet.cli.option.RegistryOption;
import dev.fleet.cli.option.Spellings;
import dev.fleet.cli.registry.RegistryCommand;
import dev.fleet.cli.roster.ProcessesCommand;
import dev.fleet.cli.roster.RosterCommand;
import dev.fleet.cli.serve.ServeCommand;
import dev.fleet.domain.Failures;
import dev.fleet.domain.Printable;
import dev.fleet.mcp.http.StreamThreads;
import dev.fleet.registry.postgresql.PasswordFileFromHome;
import dev.fleet.registry.schema.RegistryStorageException;
import java.io.PrintWriter;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code fleet}: the composition root. Each verb wires the adapters it needs and nothing more. Each
 * verb lives with its parts in a package of its own or of its family ({@code cli.assess},
 * {@code cli.serve}, {@code cli.registry}, ...), the options they share are {@code cli.option}'s and
 * the exit codes {@code cli.exit}'s; nothing there names this class, so the packages stay free of
 * cycles. This class, with {@code main}, registers the verbs and maps a failure to its
 * exit code, and stays here, where the roster's default server process pattern names it.
 */
@Command(name = "fleet",
        mixinStandardHelpOptions = true,
        scope = ScopeType.INHERIT, // --help and --version on every verb, declared once
        versionProvider = FleetCli.Version.class,
        description = "Prove an MCP server fleet is exactly the expected members, one cohort, one revision.")
public final class FleetCli implements Callable<Integer> {

    /** picocli's own help verb, named by its {@code @Command}. */
    private static final String HELP = CommandLine.HelpCommand.class.getAnnotation(Command.class).name();
    /**
     * The verbs, in the order help lists them. Added by {@link #verbsFor} rather than declared in
     * {@code @Command(subcommands)}: picocli builds a verb's whole model by reflection (annotation
     * proxies included) when it is added, and a one-shot {@code fleet assess} has no use for the
     * models of the verbs it does not run. Each name is its verb's {@code NAME}, which its
     * {@code @Command} declares: a compile-time constant, so naming it loads no verb class.
     */
    private static final Map<String, Supplier<Object>> VERBS = verbs();
    /** Verbs that show or describe the others, and so need every one of them. */
    private static final Set<String> NEED_EVERY_VERB = Set.of(HELP, CompletionCommand.NAME);

    @Spec
    private CommandSpec spec;

    public static void main(String[] args) {
        StreamThreads.reserve(); // before anything loads Reactor, which reads its pool size once
        PasswordFileFromHome.follow(System.getenv());
        System.exit(run(args));
    }

    private static Map<String, Supplier<Object>> verbs() {
        Map<String, Supplier<Object>> verbs = new LinkedHashMap<>();
        verbs.put(AssessCommand.NAME, AssessCommand::new);
        verbs.put(WatchCommand.NAME, WatchCommand::new);
        verbs.put(WaitCommand.NAME, WaitCommand::new);
        verbs.put(DashboardCommand.NAME, DashboardCommand::new);
        verbs.put(ServeCommand.NAME, ServeCommand::new);
        verbs.put(RegistryCommand.NAME, RegistryCommand::new);
        verbs.put(ProcessesCommand.NAME, ProcessesCommand::new);
        verbs.put(HostCommand.NAME, HostCommand::new);
        verbs.put(RosterCommand.NAME, RosterCommand::new);
        verbs.put(DemoCommand.NAME, DemoCommand::new);
        verbs.put(McpConfigCommand.NAME, McpConfigCommand::new);
        verbs.put(CompletionCommand.NAME, CompletionCommand::new);
        verbs.put(HELP, () -> new CommandLine.HelpCommand());
        return Collections.unmodifiableMap(verbs);
    }

    /**
     * The verbs {@code args} can reach: only the one named first when it is a verb that stands
     * alone, otherwise (no verb, an option first, an unknown verb, help, completion) every verb, so
     * that usage, suggestions and help list them all.
     */
    static Map<String, Supplier<Object>> verbsFor(String... args) {
        String first = args.length == 0 ? "" : args[0];
        if (VERBS.containsKey(first) && !NEED_EVERY_VERB.contains(first)) {
            return Map.of(first, VERBS.get(first));
        }
        return VERBS;
    }

    /**
     * Runs {@code args}. An answer that could not be written whole to stdout (a full disk, a closed
     * pipe) is no answer: one line on stderr and {@link ExitCodes#OUTPUT_FAILED}, whatever the verb
     * would have said.
     */
    static int run(String... args) {
        StandardStreams.Output stdout = StandardStreams.out();
        CommandLine cli = commandLine(args).setOut(stdout.writer()).setErr(StandardStreams.err());
        try {
            int code = execute(cli, args);
            if (code == ExitCodes.READER_GONE && (stdout.readerGone() || !stdout.failed())) {
                return ExitCodes.OK; // a watch whose reader has gone: its quiet end (a full disk is not one)
            }
            if (stdout.failed()) {
                cli.getErr().println("fleet: could not write the answer to standard output: "
                        + Printable.of(stdout.failure()));
                return ExitCodes.OUTPUT_FAILED;
            }
            return code;
        } finally {
            cli.getOut().flush();
            cli.getErr().flush();
        }
    }

    /**
     * {@code cli} run on {@code args}, where running out of memory (or of stack) is an internal error like any
     * other: one line and {@link ExitCodes#INTERNAL_ERROR}. No handler of picocli's sees a {@link java.lang.Error};
     * the JVM's own printed a stack trace and exited 1, which a script reads as an answer (a closed gate, a
     * timeout). What the failed look held is garbage once it has unwound, so the line can still be written.
     */
    static int execute(CommandLine cli, String... args) {
        try {
            return cli.execute(args);
        } catch (VirtualMachineError error) {
            String more = error instanceof OutOfMemoryError ? " (FLEET_JAVA_OPTS=-Xmx... gives the JVM more memory)" : "";
            cli.getErr().println("fleet: internal error: " + Printable.of(error.toString()) + more);
            return ExitCodes.INTERNAL_ERROR;
        }
    }

    /** The command line that parses {@code args}: the verbs they can reach, parsed as {@code run} parses them. */
    public static CommandLine commandLine(String... args) {
        CommandLine cli = new CommandLine(new FleetCli());
        verbsFor(args).forEach((name, verb) -> cli.addSubcommand(name, verb.get()));
        // No @FILE argument files: fleet never takes its arguments from a file, so "--project @dir" is a
        // directory named @dir, not a file read (picocli's reading threw a stack trace, or hung on a FIFO).
        return ExitCodes.document(Spellings.everywhere(cli)).setExpandAtFiles(false)
                .setExecutionStrategy(HelpAsked.INSTANCE)
                .setParameterExceptionHandler(ErrorHandling.INSTANCE)
                .setExitCodeExceptionMapper(ErrorHandling.INSTANCE)
                .setExecutionExceptionHandler(ErrorHandling.INSTANCE);
    }

    /**
     * How a usage error, a failure and its exit code are reported ({@link #usageError}, {@link #failure},
     * {@link ExitCodes#of}): one object that picocli is given as all three handlers.
     */
    private static final class ErrorHandling implements CommandLine.IParameterExceptionHandler,
            CommandLine.IExecutionExceptionHandler, CommandLine.IExitCodeExceptionMapper {
        static final ErrorHandling INSTANCE = new ErrorHandling();

        @Override
        public int handleParseException(ParameterException error, String[] args) {
            return usageError(error, args);
        }

        @Override
        public int handleExecutionException(Exception error, CommandLine command, CommandLine.ParseResult parsed) {
            return failure(error, command);
        }

        @Override
        public int getExitCode(Throwable failure) {
            return ExitCodes.of(failure);
        }
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.USAGE;
    }

    /**
     * One line, never a stack trace; picocli's default would print the whole usage. A mistyped verb
     * or option, at any level, is named before a required option it leaves missing, with what it
     * was most likely meant to be ({@code fleet dmeo}: did you mean demo?; see {@link Mistyped}).
     * The operator's own words are echoed {@link Printable}: the line stays one line.
     */
    private static int usageError(ParameterException error, String[] args) {
        ParameterException reported = Mistyped.firstToReport(error);
        CommandLine command = reported.getCommandLine();
        List<String> suggestions = Mistyped.suggestions(reported);
        String problem = Mistyped.problem(reported);
        String message = suggestions.isEmpty() ? problem
                : problem.replaceFirst("\\.$", "") + "; did you mean " + String.join(" or ", suggestions) + "?";
        command.getErr().println("fleet: " + Printable.of(message) + " (see '"
                + command.getCommandSpec().qualifiedName() + " --help')");
        return ExitCodes.USAGE;
    }

    /** One line, never a stack trace; the code says whose problem it is (see {@link ExitCodes#of}). */
    private static int failure(Exception error, CommandLine command) {
        PrintWriter err = command.getErr();
        int code = command.getExitCodeExceptionMapper().getExitCode(error);
        if (code == ExitCodes.USAGE) {
            err.println("fleet: " + Printable.of(error.getMessage() + registryOrigin(error, command)));
        } else {
            err.println("fleet: internal error (a bug, please report it): " + Printable.of(Failures.withKind(error)));
        }
        return code;
    }

    /** For an error about the registry file: the variable that named it, if one did. */
    private static String registryOrigin(Exception error, CommandLine command) {
        CommandSpec mixin = command.getCommandSpec().mixins().get("registry");
        return error instanceof RegistryStorageException && mixin != null
                && mixin.userObject() instanceof RegistryOption option ? option.origin() : "";
    }

    /**
     * {@code fleet --version}: the version and the git commit the jar was built from, as the build
     * recorded them in {@code build.properties}; "unknown" for what it could not tell.
     */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            BuildProperties build = BuildProperties.read();
            return new String[] {"fleet " + build.version() + " (commit " + build.commit() + ")"};
        }
    }
}
