package dev.fleet.cli;

/** What {@link FormatOption} chooses: text for people (the default), json for programs. */
enum Format {
    TEXT,
    JSON
}
