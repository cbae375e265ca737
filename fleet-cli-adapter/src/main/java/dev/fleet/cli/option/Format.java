package dev.fleet.cli.option;

/** What {@link FormatOption} chooses: text for people (the default), json for programs. */
enum Format {
    TEXT,
    JSON
}
