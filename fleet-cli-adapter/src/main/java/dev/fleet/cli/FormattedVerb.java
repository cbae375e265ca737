package dev.fleet.cli;

import java.util.function.Supplier;
import picocli.CommandLine.Mixin;

/**
 * The read-only verbs that answer either as text for people or as JSON for programs: the
 * {@code --format} option and the choice between the two are made here, once.
 */
abstract class FormattedVerb extends FleetVerb {

    @Mixin
    private FormatOption format;

    /** Whether the answer is asked for as JSON. */
    boolean printsJson() {
        return format.json();
    }

    /** Prints the answer in the chosen format: the JSON document on one line, or the text as rendered. */
    void print(Supplier<String> json, Supplier<String> text) {
        if (format.json()) {
            out().println(json.get());
        } else {
            out().print(text.get());
        }
    }
}
