package dev.fleet.domain.lifecycle;

import dev.fleet.domain.SecretMask;
import dev.fleet.domain.verdict.OutsideText;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The server a {@code fleet serve -- COMMAND} member wraps, its child: recorded in the member's row
 * ({@code server_command}, {@code server_pid}, {@code server_started_at}) so that an assessment counts the
 * processes it runs as the member's, and sees the member as gone once it has exited.
 *
 * @param command the child's argv joined by single spaces, secrets masked ({@link SecretMask}) and capped
 *     like every text a verdict shows ({@link OutsideText}); masked and capped again here, which changes
 *     nothing of a command already so, so no other form can reach a row
 * @param pid the child's pid, positive
 * @param startedAt the child's start instant as the process table reports it (never a clock read), or null
 *     when unreadable
 */
public record ServedServer(String command, long pid, Instant startedAt) {

    public ServedServer {
        Objects.requireNonNull(command, "served server: command");
        if (pid <= 0) {
            throw new IllegalArgumentException("served server: pid must be positive, got " + pid);
        }
        command = OutsideText.commandLine(command);
    }

    /** The same child with its start read {@code step} later or earlier (a wall-clock step moved the boot time). */
    public ServedServer movedBy(Duration step) {
        return startedAt == null ? this : new ServedServer(command, pid, startedAt.plus(step));
    }

    /** The child started from {@code argv} as {@code pid} at {@code startedAt}: its command masked as an argv. */
    public static ServedServer of(List<String> argv, long pid, Instant startedAt) {
        return new ServedServer(SecretMask.argv(argv), pid, startedAt);
    }
}
