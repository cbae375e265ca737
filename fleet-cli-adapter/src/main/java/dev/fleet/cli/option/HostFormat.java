package dev.fleet.cli.option;

/**
 * What {@code host --format} chooses: text for people (the default), json for programs (the report
 * whose schema {@code fleet host --schema} prints), sh for a shell (only the guarded stop script of the
 * strays). Only {@code host} offers sh, so it is this verb's own option rather than {@link FormatOption}.
 */
public enum HostFormat {
    TEXT,
    JSON,
    SH
}
