package dev.fleet.cli;

import picocli.CommandLine.Option;

/** {@code --format text|json}; text, for people, is the default of every verb. */
final class FormatOption {

    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json",
            completionCandidates = Candidates.Formats.class,
            description = "Output format: text (default) or json.")
    Format format;

    boolean json() {
        return format == Format.JSON;
    }
}
