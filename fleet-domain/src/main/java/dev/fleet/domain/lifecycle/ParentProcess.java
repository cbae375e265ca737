package dev.fleet.domain.lifecycle;

import java.time.Duration;
import java.time.Instant;

/**
 * The process that started this server, as it was when the server started: over stdio, its MCP client.
 * Recorded in the row ({@code parent_pid}, {@code parent_started_at}) so that an assessment can tell
 * a server whose client is gone (an orphan) from one whose client still lives, even after the parent's
 * pid has been recycled: the start instant is read as every start is (the OS's, never a clock).
 *
 * @param pid the parent's pid, positive
 * @param startedAt the parent's start instant as the process table reports it, or null when unreadable
 */
public record ParentProcess(long pid, Instant startedAt) {

    public ParentProcess {
        if (pid <= 0) {
            throw new IllegalArgumentException("parent process: pid must be positive, got " + pid);
        }
    }

    /** The same parent with its start read {@code step} later or earlier (a wall-clock step moved the boot time). */
    public ParentProcess movedBy(Duration step) {
        return startedAt == null ? this : new ParentProcess(pid, startedAt.plus(step));
    }
}
