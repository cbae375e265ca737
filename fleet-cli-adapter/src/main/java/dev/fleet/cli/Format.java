package dev.fleet.cli;

/** {@code --format}: text for people (the default), json for programs. */
enum Format {
    TEXT,
    JSON
}
