package dev.fleet.clientconfig;

/**
 * How much of a configuration {@code fleet host} reads: a file is written by the user or by a client,
 * but a bound keeps a runaway file (Claude Code keeps its projects' history in {@code ~/.claude.json},
 * which grows past a few MiB) from becoming a runaway read.
 */
final class ReadBounds {

    /** A larger file is one warning ("larger than 8 MiB"), never read into memory. */
    static final int FILE_BYTES = 8 * 1024 * 1024;
    /** Servers read from one file; the rest are one warning. */
    static final int ENTRIES_PER_FILE = 256;
    /** Arguments of one entry; an entry with more is skipped (and counted in the file's warning). */
    static final int ARGS_PER_ENTRY = 256;
    /** Characters of a command, an argument or a server's name. */
    static final int ARG_CHARS = 4096;
    /** A script's interpreter line is read from this many bytes at most, as the kernel reads it (Linux 5.1+). */
    static final int SHEBANG_BYTES = 256;
    /** Directories of {@code PATH} searched. */
    static final int PATH_DIRECTORIES = 256;

    private ReadBounds() {
    }
}
