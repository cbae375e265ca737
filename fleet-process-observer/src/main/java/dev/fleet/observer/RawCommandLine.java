package dev.fleet.observer;

import java.util.Optional;

/**
 * One process's command line as the roster's patterns are matched against it, unmasked: what an observer
 * keeps has its secrets masked ({@link CommandLines#masked}), and a pattern may name what masking hides (a
 * registry's {@code postgres://user@host}, whose user part is masked). From {@code /proc/<pid>/cmdline} as the
 * /proc observer reads it, else as the JDK gives it. For a check that asks whether an assessment would match
 * a process, never for showing.
 */
public final class RawCommandLine {

    private RawCommandLine() {
    }

    /** {@code pid}'s command line, joined by single spaces; empty when it cannot be read (or has none). */
    public static Optional<String> of(long pid) {
        ProcFileReader reader = new ProcFileReader();
        int length = reader.readProcessFile("/proc/" + pid + "/cmdline");
        if (length > 0) {
            return Optional.of(CommandLines.join(reader.buffer(), length));
        }
        return ProcessHandle.of(pid).flatMap(handle -> handle.info().commandLine()).filter(line -> !line.isEmpty());
    }
}
