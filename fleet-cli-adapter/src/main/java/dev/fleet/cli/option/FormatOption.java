package dev.fleet.cli.option;

import java.io.PrintWriter;
import java.util.function.Supplier;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code --format text|json}, the mixin of every verb that answers either as text for people (the
 * default) or as JSON for programs: the option and the choice between the two are made here, once.
 */
public final class FormatOption {

    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json",
            completionCandidates = Candidates.Formats.class,
            description = "Output format: text (default) or json.")
    Format format;

    /** The verb this option is mixed into: its standard output is where the answer goes. */
    @Spec(Spec.Target.MIXEE)
    private CommandSpec verb;

    /** The verb's standard output, where its answer goes. */
    public PrintWriter out() {
        return verb.commandLine().getOut();
    }

    /** Whether the answer is asked for as JSON. */
    public boolean json() {
        return format == Format.JSON;
    }

    /** Prints the answer in the chosen format: the JSON document on one line, or the text as rendered. */
    public void print(Supplier<String> json, Supplier<String> text) {
        if (json()) {
            out().println(json.get());
        } else {
            out().print(text.get());
        }
    }
}
