package dev.fleet.cli;

import dev.fleet.registry.sqlite.RegistryStorageException;
import picocli.CommandLine;

/**
 * Every exit code the CLI gives, named once. What 1 means depends on the verb (the gate is not
 * satisfied, the registry is unreadable, a demo verdict was not seen); each verb lists its own in
 * its help.
 */
final class ExitCodes {

    static final int OK = CommandLine.ExitCode.OK;
    /** The verb ran and its answer is "no": a closed gate, an unreadable registry, a missed verdict. */
    static final int NEGATIVE = 1;
    static final int USAGE = CommandLine.ExitCode.USAGE;
    /** A bug, not the operator's input: sysexits' EX_SOFTWARE. */
    static final int INTERNAL_ERROR = 70;
    /** The answer could not be written to stdout (a full disk, a closed pipe): sysexits' EX_IOERR. */
    static final int OUTPUT_FAILED = 74;
    /**
     * What {@code fleet watch} returns when a line found its reader gone (stdout closed, as after
     * {@code | head -3}): its normal end, so the CLI exits 0 quietly rather than 74. Never an exit
     * status itself (see {@link FleetCli#run}).
     */
    static final int READER_GONE = Integer.MIN_VALUE;
    /** 128 + SIGINT, as a shell reports an interrupted command. */
    static final int INTERRUPTED = 130;

    static final String HEADING = "%nExit codes:%n";
    static final String USAGE_LINE = "2:usage or configuration error (one line on stderr)";
    static final String INTERNAL_LINE = "70:internal error, a bug (one line on stderr)";

    private ExitCodes() {
    }

    /** Configuration and registry storage problems are the operator's to fix; anything else is a bug. */
    static int of(Throwable failure) {
        return failure instanceof ConfigurationException || failure instanceof RegistryStorageException
                ? USAGE : INTERNAL_ERROR;
    }
}
