package dev.fleet.cli;

import java.io.PrintWriter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** What every verb has: its place in the command line, for its output and error streams and its usage. */
abstract class FleetVerb {

    @Spec
    CommandSpec spec;

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    /** For a verb that only groups others: its usage on stderr, and the usage exit code. */
    int usage() {
        spec.commandLine().usage(err());
        return ExitCodes.USAGE;
    }
}
