package dev.fleet.observer;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Whether {@code /proc} may hide other users' processes from us ({@code hidepid=1|2|4}, spelled
 * {@code noaccess|invisible|ptraceable} by newer kernels, with or without {@code subset=pid}). A
 * listing that cannot see every server would report a live duplicate as gone, so such a table counts
 * as unreadable ({@code permission_denied}) rather than as a truthful, shorter list. A reader with
 * CAP_SYS_PTRACE (root, unless it dropped it), and members of the mount's {@code gid=} group, see everything.
 *
 * <p>The mount options are read from our own {@code self/mountinfo}, which a {@code subset=pid}
 * mount still shows (it hides the top-level {@code mounts} link), else from {@code mounts}. When
 * neither can be read, or no {@code proc} mount on {@code /proc} is listed, processes may be
 * hidden: fail closed.
 */
final class HiddenProcesses {

    private static final Set<String> VISIBLE = Set.of("0", "off");
    /** hidepid=4: the mount's gid= group sees no more than anyone (has_pid_permissions asks ptrace alone). */
    private static final Set<String> PTRACEABLE = Set.of("4", "ptraceable");
    private static final String PROC = "/proc";
    /** linux/capability.h: the capability hidepid asks of a reader of another user's process. */
    private static final int CAP_SYS_PTRACE = 19;

    private HiddenProcesses() {
    }

    /** Reads the mount table and our own {@code status} under {@code procRoot}; what cannot be read may hide. */
    static boolean hideOthersFromUs(Path procRoot) {
        Optional<String> status = read(procRoot.resolve("self/status"));
        if (status.isEmpty()) {
            return true;
        }
        if (isRoot(status.get())) {
            return false; // the mount table is not even read: a watch asks this every second
        }
        Optional<List<String>> options = read(procRoot.resolve("self/mountinfo"))
                .flatMap(HiddenProcesses::procOptionsFromMountinfo)
                .or(() -> read(procRoot.resolve("mounts")).flatMap(HiddenProcesses::procOptionsFromMounts));
        return hideOthers(options, status.get());
    }

    /** The same decision over {@code /proc/mounts}' text and our {@code status}. */
    static boolean hideOthers(String mounts, String ownStatus) {
        return hideOthers(procOptionsFromMounts(mounts), ownStatus);
    }

    /** The same decision over {@code /proc/self/mountinfo}'s text and our {@code status}. */
    static boolean hideOthersByMountinfo(String mountinfo, String ownStatus) {
        return hideOthers(procOptionsFromMountinfo(mountinfo), ownStatus);
    }

    /** {@code options}: the options of the proc mount we see on {@code /proc}, empty when unknown. */
    private static boolean hideOthers(Optional<List<String>> options, String ownStatus) {
        if (isRoot(ownStatus)) {
            return false;
        }
        if (options.isEmpty()) {
            return true; // the options cannot be read: processes may be hidden
        }
        Optional<String> hidepid = option(options.get(), "hidepid");
        if (hidepid.isEmpty() || VISIBLE.contains(hidepid.get())) {
            return false;
        }
        if (PTRACEABLE.contains(hidepid.get())) {
            return true; // the kernel shows only what the reader may ptrace, whatever its groups
        }
        return option(options.get(), "gid")
                .map(gid -> !statusField(ownStatus, "Groups:").contains(gid))
                .orElse(true);
    }

    /**
     * Whether we see every process whatever the mount says: hidepid shows another user's process only to a reader
     * that may ptrace it, which takes CAP_SYS_PTRACE, not a uid of 0 ({@code capsh --drop=cap_sys_ptrace} left root
     * blind to another user's duplicate, and its gate open). By effective uid only where {@code status} has no
     * {@code CapEff} line (every kernel this runs on has one).
     */
    private static boolean isRoot(String ownStatus) {
        List<String> capabilities = statusField(ownStatus, "CapEff:");
        if (capabilities.size() == 1) {
            try {
                return new BigInteger(capabilities.get(0), 16).testBit(CAP_SYS_PTRACE);
            } catch (NumberFormatException unreadable) {
                return false;
            }
        }
        List<String> uids = statusField(ownStatus, "Uid:");
        return uids.size() > 1 && uids.get(1).equals("0");
    }

    /** {@code /proc/mounts}: device, mount point, type, options. The mount on top (last) is the one we see. */
    private static Optional<List<String>> procOptionsFromMounts(String mounts) {
        return mounts.lines()
                .map(line -> fields(line, " "))
                .filter(fields -> fields.size() >= 4 && fields.get(1).equals(PROC) && fields.get(2).equals("proc"))
                .map(fields -> fields(fields.get(3), ","))
                .reduce((first, last) -> last);
    }

    /**
     * {@code mountinfo}: id, parent, dev, root, mount point, mount options, optional fields, {@code -},
     * type, source, super options. {@code hidepid} is a super option; both option lists are kept.
     */
    private static Optional<List<String>> procOptionsFromMountinfo(String mountinfo) {
        return mountinfo.lines()
                .map(line -> fields(line, " "))
                .filter(fields -> fields.size() >= 10 && fields.get(4).equals(PROC))
                .map(fields -> {
                    int separator = fields.indexOf("-");
                    if (separator < 6 || separator + 3 >= fields.size() || !fields.get(separator + 1).equals("proc")) {
                        return null;
                    }
                    List<String> options = new ArrayList<>(fields(fields.get(5), ","));
                    options.addAll(fields(fields.get(separator + 3), ","));
                    return options;
                })
                .filter(options -> options != null)
                .reduce((first, last) -> last);
    }

    private static Optional<String> read(Path file) {
        try {
            return Optional.of(Files.readString(file));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> option(List<String> options, String name) {
        return options.stream().filter(option -> option.startsWith(name + "="))
                .map(option -> option.substring(name.length() + 1)).reduce((first, last) -> last);
    }

    private static List<String> statusField(String status, String name) {
        return status.lines().filter(line -> line.startsWith(name))
                .map(line -> fields(line.substring(name.length()), " \t"))
                .findFirst().orElse(List.of());
    }

    /**
     * The non-empty runs of {@code text} between any of the {@code separators}. Not
     * {@code String.split}: that hands its argument to {@code java.util.regex}, which this module
     * keeps out (see the architecture rules).
     */
    static List<String> fields(String text, String separators) {
        List<String> fields = new ArrayList<>();
        int start = -1;
        for (int i = 0; i <= text.length(); i++) {
            boolean separator = i == text.length() || separators.indexOf(text.charAt(i)) >= 0;
            if (separator && start >= 0) {
                fields.add(text.substring(start, i));
                start = -1;
            } else if (!separator && start < 0) {
                start = i;
            }
        }
        return fields;
    }
}
