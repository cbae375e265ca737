package dev.fleet.domain.host;

import java.util.List;
import java.util.Locale;

/**
 * The guarded POSIX shell line that stops processes (the contract, §14): SIGTERM to each, then after 2 s
 * SIGKILL to what remains, each signal sent only if {@code /proc/PID/stat} still shows the start
 * observed, and only on the boot it was observed on: it first compares {@code
 * /proc/sys/kernel/random/boot_id} with the boot id observed (as the stop script does) and does nothing
 * but say so on another boot, where a pid and its ticks may name a new process. The line holds no text
 * from outside: only its fixed words, the boot id's hex digits and dashes and the digits of pids and
 * ticks, so no argv can inject anything into it.
 *
 * <p>How it reads field 22: the second field, the command name in parentheses, may hold spaces and
 * {@code )} (and even a newline), so the line reads the whole file and takes what follows its last
 * {@code )}: the fields from the third on, the start being the 20th of them. It runs in a subshell,
 * so a line pasted into an interactive shell changes none of its settings ({@code set -f} against
 * globbing, {@code IFS}, the positional parameters). On its boot a process already gone, or a pid now another
 * process's, is what the guard is for, not a failure. A signal that fails while the process still runs as observed
 * (another user's: EPERM) is: the line says so on stderr, one line naming the pid, signals that pid no more, stops
 * what else it can, and exits 1 at the end, so a stop that did not happen never reads as done. Whether it still runs
 * is asked again after the failure, since a process that exits between the check and the signal fails it too.
 */
public final class StopLine {

    /** The seconds between SIGTERM and SIGKILL. */
    public static final int GRACE_SECONDS = 2;

    private StopLine() {
    }

    /**
     * {@code bootId} as the guard compares it (trimmed, lower case), or null when it is not plain hex
     * digits and dashes: such an id can neither be trusted to mean one boot nor be put in a shell line.
     */
    static String guardableBoot(String bootId) {
        String boot = bootId == null ? "" : bootId.strip().toLowerCase(Locale.ROOT);
        boolean plain = !boot.isEmpty() && boot.length() <= 64
                && boot.chars().allMatch(c -> c == '-' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
        return plain ? boot : null;
    }

    /** Whether the line can guard {@code target}: a pid above init's and a start that was read. */
    static boolean guardable(StopTarget target) {
        return target.pid() > ProcessForest.INIT && target.startTicks() >= 0;
    }

    /** The line given when the boot id is not plain: it signals nothing and says so. */
    static final String UNKNOWN_BOOT =
            "(echo 'fleet host: not stopped: the boot id was unknown when this line was made' >&2; exit 1)";

    /** The line given when a process of the tree is init's or has no start to check: it signals nothing. */
    static final String UNGUARDED =
            "(echo 'fleet host: not stopped: a process of this tree has no start to check' >&2; exit 1)";

    /**
     * The line that stops every one of {@code targets} at once, in their order, on the boot {@code bootId}
     * only (ticks since boot name another process after a reboot). Never an exception on data: when it
     * cannot be guarded (the boot id is not plain, {@link #guardableBoot}; a target is not {@link
     * #guardable}) it is a line that signals nothing, says why on stderr and exits 1 ({@link #UNKNOWN_BOOT},
     * {@link #UNGUARDED}), so a stray always has a line and a pasted one never stops an unchecked process.
     */
    static String of(String bootId, List<StopTarget> targets) {
        if (targets.isEmpty()) {
            throw new IllegalArgumentException("a stop line stops at least one process");
        }
        String boot = guardableBoot(bootId);
        if (boot == null) {
            return UNKNOWN_BOOT;
        }
        if (!targets.stream().allMatch(StopLine::guardable)) {
            return UNGUARDED;
        }
        StringBuilder list = new StringBuilder();
        for (StopTarget target : targets) {
            list.append(list.isEmpty() ? "" : " ").append(target.pid()).append(':').append(target.startTicks());
        }
        // c: whether pid $p still runs with the start in $e. k: signal $g to each that does; one that cannot be
        // signalled and still runs is named once, kept in $f (and not signalled again), and fails the line.
        return "(set -f; IFS=' '; [ \"$(tr A-F a-f </proc/sys/kernel/random/boot_id 2>/dev/null)\" = '" + boot
                + "' ] || { echo 'fleet host: not stopped: seen on boot " + boot + ", not this boot' >&2; exit 1; }; "
                + "c() { s=$(cat /proc/$p/stat 2>/dev/null) || return 1; set -- ${s##*\")\"}; "
                + "[ $# -ge 20 ] && shift 19 && [ \"$1\" = \"${e#*:}\" ]; }; "
                + "k() { for e in " + list + "; do p=${e%:*}; case \" $f \" in *\" $p \"*) continue;; esac; "
                + "c || continue; kill -s $g $p 2>/dev/null || ! c || { echo \"fleet host: pid $p could not be "
                + "signalled (SIG$g): it still runs\" >&2; f=\"$f $p\"; }; done; }; "
                + "f=; g=TERM; k; sleep " + GRACE_SECONDS + "; g=KILL; k; [ -z \"$f\" ])";
    }
}
