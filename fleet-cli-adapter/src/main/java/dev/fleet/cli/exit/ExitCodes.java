package dev.fleet.cli.exit;

import dev.fleet.registry.schema.RegistryStorageException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * Every exit code the CLI gives, named once, and the one place that says what each means to each
 * verb: {@link #document} writes the "Exit codes" section of every verb's help from {@link #HELP}.
 * What 1 means depends on the verb (the gate is not satisfied, the registry is unreadable, a demo
 * verdict was not seen); 130 and 143 are the JVM's, when a signal ends {@code serve}, {@code demo},
 * {@code watch}, {@code wait} or {@code dashboard}; {@code serve} has two more of its own (another stop
 * signal's, and the status of the server it wraps).
 */
public final class ExitCodes {

    public static final int OK = CommandLine.ExitCode.OK;
    /** The verb ran and its answer is "no": a closed gate, an unreadable registry, a missed verdict. */
    public static final int NEGATIVE = 1;
    public static final int USAGE = CommandLine.ExitCode.USAGE;
    /** A bug, not the operator's input: sysexits' EX_SOFTWARE. */
    public static final int INTERNAL_ERROR = 70;
    /** The answer could not be written to stdout (a full disk, a closed pipe): sysexits' EX_IOERR. */
    public static final int OUTPUT_FAILED = 74;
    /**
     * What {@code fleet watch} returns when a line found its reader gone (stdout closed, as after
     * {@code | head -3}): its normal end, so the CLI exits 0 quietly rather than 74. Never an exit
     * status itself (see {@link dev.fleet.cli.FleetCli#run}).
     */
    public static final int READER_GONE = Integer.MIN_VALUE;
    /** 128 + SIGINT, as a shell reports an interrupted command. */
    public static final int INTERRUPTED = 130;
    /** 128 + SIGTERM: the JVM's own status when a SIGTERM ends it (no code here returns it). */
    static final int TERMINATED = 143;

    private static final String HEADING = "%nExit codes:%n";
    private static final Line USAGE_LINE = new Line(USAGE, "usage or configuration error (one line on stderr)");
    private static final Line INTERNAL_LINE = new Line(INTERNAL_ERROR, "internal error, a bug (one line on stderr)");
    /** Every verb that answers on stdout gives 74 when it cannot write it there (FleetCli.run), whatever the verb. */
    private static final Line OUTPUT_LINE = new Line(OUTPUT_FAILED,
            "the answer could not be written to standard output (one line on stderr)");
    /** Why a registry file can never be written, as {@code serve} and {@code registry migrate} both refuse it. */
    private static final String UNWRITABLE_REGISTRY = "not a regular file, a named path whose directory does not "
            + "exist, a directory that cannot be created";

    /**
     * Each verb's exit codes, in the order its help lists them, by the verb's full name (names, not
     * classes: a one-shot verb loads no other verb's class).
     */
    private static final Map<String, List<Line>> HELP = Map.ofEntries(
            Map.entry("fleet", List.of(new Line(OK, "success; for assess, the mutation gate is satisfied"),
                    new Line(NEGATIVE, "the verb's answer is no: the gate is not satisfied, the registry is "
                            + "unreadable, a demo verdict was not seen, the host has strays"), USAGE_LINE, INTERNAL_LINE,
                    new Line(OUTPUT_FAILED, "the answer could not be written to standard output (one line on stderr)"),
                    new Line(INTERRUPTED + "/" + TERMINATED, "serve, demo, watch, wait or dashboard ended by SIGINT/SIGTERM"))),
            Map.entry("fleet assess", List.of(new Line(OK, "the mutation gate is satisfied"),
                    new Line(NEGATIVE, "the gate is not satisfied (a registry problem is a verdict too)"),
                    USAGE_LINE, INTERNAL_LINE, new Line(OUTPUT_FAILED, "the answer could not be written, to standard "
                            + "output or to --output FILE (one line on stderr; an old FILE is left as it was)"))),
            Map.entry("fleet watch", List.of(
                    new Line(OK, "its reader went away (standard output a pipe closed, e.g. fleet watch | head -3)"),
                    USAGE_LINE, INTERNAL_LINE, new Line(OUTPUT_FAILED, "the answer could not be written to standard "
                            + "output, a file or a device (a full disk; one line on stderr)"),
                    new Line(INTERRUPTED, "ended by SIGINT"), new Line(TERMINATED, "ended by SIGTERM"))),
            Map.entry("fleet wait", List.of(new Line(OK, "the condition holds; that verdict is printed"),
                    new Line(NEGATIVE, "the timeout passed first; the last verdict is printed"), USAGE_LINE,
                    INTERNAL_LINE, OUTPUT_LINE, new Line(INTERRUPTED, "ended by SIGINT"), new Line(TERMINATED, "ended by SIGTERM"))),
            Map.entry("fleet dashboard", List.of(
                    new Line(USAGE, "a bad option, an invalid roster, or an address it cannot bind (one line on stderr)"),
                    new Line(INTERRUPTED, "ended by SIGINT"), new Line(TERMINATED, "ended by SIGTERM"), INTERNAL_LINE,
                    OUTPUT_LINE)),
            Map.entry("fleet serve", List.of(new Line(OK, "over stdio: its client closed stdin, or (without "
                    + "--keep-without-client) is gone; its row is marked stopped. Over http stdin is ignored: only "
                    + "a stop signal ends it"),
                    new Line(USAGE, "unknown profile, bad option, invalid roster, a command line the roster's "
                            + "server_process_patterns do not match, an address it cannot bind, or a registry it can "
                            + "never write: " + UNWRITABLE_REGISTRY),
                    new Line(INTERRUPTED, "ended by SIGINT"), new Line(TERMINATED, "ended by SIGTERM"),
                    new Line("128+N", "ended by another stop signal N: SIGHUP 129, SIGUSR1 138, SIGUSR2 140, SIGALRM 142 "
                            + "(docs/CONTRACT.md, Signals)"),
                    new Line("STATUS", "serve -- COMMAND: the wrapped server exited on its own with this status (128 + N "
                            + "when signal N ended it)"), INTERNAL_LINE)),
            Map.entry("fleet registry", List.of(USAGE_LINE)),
            Map.entry("fleet registry migrate", List.of(new Line(OK, "migrated (or already current)"),
                    new Line(USAGE, "the registry cannot be made or migrated: a file " + UNWRITABLE_REGISTRY + "; a "
                            + "PostgreSQL database unreachable within 5 s or refusing the credentials; a table "
                            + "lacking columns, a migration lock held too long (one line on stderr)"), INTERNAL_LINE, OUTPUT_LINE)),
            Map.entry("fleet registry list", List.of(new Line(OK, "listed"),
                    new Line(NEGATIVE, "the registry is unreadable (the reason on stderr)"), USAGE_LINE, INTERNAL_LINE,
                    OUTPUT_LINE)),
            Map.entry("fleet processes", List.of(new Line(OK, "listed"),
                    new Line(USAGE, "usage error or an invalid roster (one line on stderr)"), INTERNAL_LINE, OUTPUT_LINE)),
            Map.entry("fleet host", List.of(new Line(OK, "no stray"),
                    new Line(NEGATIVE, "strays: a server to stop (stale_generation, duplicate, orphaned or leftover), or "
                            + "no process table to look at, which rules none out (the warning says why)"),
                    new Line(USAGE, "a bad option or an invalid roster (one line on stderr; a configuration file "
                            + "that cannot be read is a warning, not an error)"), INTERNAL_LINE, OUTPUT_LINE)),
            Map.entry("fleet roster", List.of(new Line(OK, "shown"),
                    new Line(USAGE, "invalid roster file (one line on stderr)"), INTERNAL_LINE, OUTPUT_LINE)),
            Map.entry("fleet demo", List.of(new Line(OK, "every expected verdict was seen"),
                    new Line(NEGATIVE, "one was not, or a step failed (one line on stderr)"),
                    new Line(USAGE, "a --pause outside 0s to 10m, a bad duration (one line on stderr)"),
                    new Line(INTERRUPTED, "interrupted by SIGINT (" + TERMINATED + " by SIGTERM); its servers are "
                            + "stopped (one line on stderr)"), INTERNAL_LINE, OUTPUT_LINE)),
            Map.entry("fleet mcp-config", List.of(new Line(OK, "printed"),
                    new Line(USAGE, "the repository root is not a directory or not a git checkout with a commit, "
                            + "an invalid roster, or a bad option (one line on stderr)"), INTERNAL_LINE, OUTPUT_LINE)),
            Map.entry("fleet completion", List.of(new Line(OK, "printed"), USAGE_LINE, INTERNAL_LINE, OUTPUT_LINE)));

    private ExitCodes() {
    }

    /** Configuration and registry storage problems are the operator's to fix; anything else is a bug. */
    public static int of(Throwable failure) {
        return failure instanceof ConfigurationException || failure instanceof RegistryStorageException
                ? USAGE : INTERNAL_ERROR;
    }

    /**
     * Gives {@code command} and each of its verbs the "Exit codes" section of its help, from
     * {@link #HELP}; a verb not listed there (picocli's {@code help}) shows its parent's.
     */
    public static CommandLine document(CommandLine command) {
        return document(command, Map.of());
    }

    private static CommandLine document(CommandLine command, Map<String, String> parents) {
        List<Line> lines = HELP.get(command.getCommandSpec().qualifiedName());
        Map<String, String> section = lines == null ? parents : new LinkedHashMap<>();
        if (lines != null) {
            lines.forEach(line -> section.put(line.codes(), line.meaning()));
        }
        if (!section.isEmpty()) {
            command.getCommandSpec().usageMessage().exitCodeListHeading(HEADING).exitCodeList(section);
        }
        command.getSubcommands().values().forEach(verb -> document(verb, section));
        return command;
    }

    /** A line of the section: the code (or codes, as {@code 130/143}) and what it means for that verb. */
    private record Line(String codes, String meaning) {

        Line(int code, String meaning) {
            this(String.valueOf(code), meaning);
        }
    }
}
