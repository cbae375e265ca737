package dev.fleet.cli;

import java.io.PrintWriter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * What the read-only verbs share: their place in the command line, for their output and error
 * streams. Verbs that write the registry (or start what does) do not extend it, so that nothing on
 * the assessment path reaches a write even through this base class's subclasses.
 */
abstract class FleetVerb {

    @Spec
    CommandSpec spec;

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    PrintWriter err() {
        return spec.commandLine().getErr();
    }

}
