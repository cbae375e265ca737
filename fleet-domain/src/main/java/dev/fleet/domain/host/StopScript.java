package dev.fleet.domain.host;

import java.util.ArrayList;
import java.util.List;

/**
 * The whole stop script of {@code fleet host --format sh} (the contract, §14): every stray signalled at
 * once, one wait of 2 s, then SIGKILL to what remains, each signal guarded by the start observed
 * ({@link StopLine}). It starts with {@code #!/bin/sh} and a comment naming the boot it was made on, and
 * refuses to run on another boot ({@code /proc/sys/kernel/random/boot_id}, compared trimmed and
 * case-insensitively, as §4 compares it): ticks since boot mean nothing after a reboot. Each stray is
 * named in a comment line; every outside text there (a server's name, a command) is {@link Sanitized},
 * so no newline ends the comment. Nothing else in it comes from outside.
 */
public final class StopScript {

    private StopScript() {
    }

    /** One stray as the script names it: a comment (outside text sanitized here) and its processes. */
    record Stray(String state, String client, String name, String command, List<StopTarget> targets) {
        Stray {
            targets = List.copyOf(targets);
        }
    }

    static String of(String bootId, List<Stray> strays) {
        String boot = StopLine.guardableBoot(bootId);
        boolean known = boot != null;
        StringBuilder script = new StringBuilder("#!/bin/sh\n");
        script.append("# fleet host: the guarded stop script of ").append(strays.size())
                .append(strays.size() == 1 ? " stray" : " strays").append(", made on boot ")
                .append(known ? boot : "(unknown)").append('\n');
        if (strays.isEmpty()) {
            return script.append("# nothing to stop\n").toString();
        }
        script.append("# a process is signalled only while /proc/PID/stat field 22 shows the start fleet observed\n");
        List<StopTarget> targets = new ArrayList<>();
        for (Stray stray : strays) {
            StringBuilder pids = new StringBuilder();
            stray.targets().forEach(target -> pids.append(' ').append(target.pid()));
            script.append("# ").append(stray.state()).append(' ').append(Sanitized.oneLine(stray.client()))
                    .append(' ').append(Sanitized.oneLine(stray.name())).append(": pids").append(pids)
                    .append(": ").append(Sanitized.oneLine(stray.command())).append('\n');
            targets.addAll(stray.targets());
        }
        if (!known) {
            return script.append("echo 'fleet host: the boot was unknown when this script was made; not run' >&2; exit 1\n")
                    .toString();
        }
        script.append("[ \"$(tr A-F a-f </proc/sys/kernel/random/boot_id 2>/dev/null)\" = '").append(boot)
                .append("' ] || { echo 'fleet host: this script was made on boot ").append(boot)
                .append("; not run on another boot' >&2; exit 1; }\n");
        // A known boot, and the caller gives only strays whose every target is guardable: a guarded line.
        return script.append(StopLine.of(bootId, targets)).append('\n').toString();
    }
}
