package dev.fleet.observer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Whether {@code /proc} hides other users' processes from us ({@code hidepid=1|2|noaccess|invisible}).
 * A listing that cannot see every server would report a live duplicate as gone, so such a table
 * counts as unreadable ({@code permission_denied}) rather than as a truthful, shorter list. Root,
 * and members of the mount's {@code gid=} group, see everything.
 */
final class HiddenProcesses {

    private static final Set<String> VISIBLE = Set.of("0", "off");

    private HiddenProcesses() {
    }

    /** Reads {@code mounts} and our own {@code status} under {@code procRoot}; unreadable means not hidden. */
    static boolean hideOthersFromUs(Path procRoot) throws IOException {
        try {
            return hideOthers(Files.readString(procRoot.resolve("mounts")),
                    Files.readString(procRoot.resolve("self/status")));
        } catch (NoSuchFileException e) {
            return false;
        }
    }

    /** The same decision over the two files' text. */
    static boolean hideOthers(String mounts, String ownStatus) {
        Optional<List<String>> options = mounts.lines()
                .map(line -> fields(line, " "))
                .filter(fields -> fields.size() >= 4 && fields.get(1).equals("/proc") && fields.get(2).equals("proc"))
                .map(fields -> fields(fields.get(3), ","))
                .reduce((first, last) -> last); // the mount on top is the one we see
        if (options.isEmpty()) {
            return false;
        }
        Optional<String> hidepid = option(options.get(), "hidepid");
        if (hidepid.isEmpty() || VISIBLE.contains(hidepid.get())) {
            return false;
        }
        List<String> uids = statusField(ownStatus, "Uid:");
        boolean root = uids.size() > 1 && uids.get(1).equals("0");
        boolean inSeeingGroup = option(options.get(), "gid")
                .map(gid -> statusField(ownStatus, "Groups:").contains(gid))
                .orElse(false);
        return !root && !inSeeingGroup;
    }

    private static Optional<String> option(List<String> options, String name) {
        return options.stream().filter(option -> option.startsWith(name + "="))
                .map(option -> option.substring(name.length() + 1)).findFirst();
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
