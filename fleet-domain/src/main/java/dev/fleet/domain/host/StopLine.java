package dev.fleet.domain.host;

import java.util.List;

/**
 * The guarded POSIX shell line that stops processes (the contract, §14): SIGTERM to each, then after 2 s
 * SIGKILL to what remains, each signal sent only if {@code /proc/PID/stat} still shows the start
 * observed. The line holds no text from outside: only its fixed words and the digits of pids and
 * ticks, so no argv can inject anything into it.
 *
 * <p>How it reads field 22: the second field, the command name in parentheses, may hold spaces and
 * {@code )} (and even a newline), so the line reads the whole file and takes what follows its last
 * {@code )}: the fields from the third on, the start being the 20th of them. It runs in a subshell,
 * so a line pasted into an interactive shell changes none of its settings ({@code set -f} against
 * globbing, {@code IFS}, the positional parameters). It exits 0 whatever it found: a process already
 * gone, or a pid now another process's, is what the guard is for, not a failure.
 */
public final class StopLine {

    /** The seconds between SIGTERM and SIGKILL. */
    public static final int GRACE_SECONDS = 2;

    private StopLine() {
    }

    /** The line that stops every one of {@code targets} at once, in their order. */
    static String of(List<StopTarget> targets) {
        if (targets.isEmpty()) {
            throw new IllegalArgumentException("a stop line stops at least one process");
        }
        StringBuilder list = new StringBuilder();
        for (StopTarget target : targets) {
            if (target.pid() <= 0 || target.startTicks() < 0) {
                throw new IllegalArgumentException("not a process to signal: " + target);
            }
            list.append(list.isEmpty() ? "" : " ").append(target.pid()).append(':').append(target.startTicks());
        }
        return "(set -f; IFS=' '; k() { for e in " + list + "; do p=${e%:*}; "
                + "s=$(cat /proc/$p/stat 2>/dev/null) || continue; set -- ${s##*\")\"}; "
                + "[ $# -ge 20 ] && shift 19 && [ \"$1\" = \"${e#*:}\" ] && kill -s $g $p 2>/dev/null; done; }; "
                + "g=TERM; k; sleep " + GRACE_SECONDS + "; g=KILL; k; exit 0)";
    }
}
