package dev.fleet.mcp.relay;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The live processes of one process group, from {@code /proc} (Linux; elsewhere none): how the
 * wrapped server's processes are found after their parents are gone. Reading sends no signal.
 */
final class ProcessGroup {

    private static final Path PROC = Path.of("/proc");

    private ProcessGroup() {
    }

    /** Every process whose group is {@code groupId}, the leader included, as handles (their starts pinned). */
    static List<ProcessHandle> members(long groupId) {
        List<ProcessHandle> members = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC, ProcessGroup::isPid)) {
            for (Path entry : entries) {
                if (groupOf(entry) == groupId) {
                    ProcessHandle.of(Long.parseLong(entry.getFileName().toString())).ifPresent(members::add);
                }
            }
        } catch (IOException | RuntimeException e) {
            return members; // no /proc: nothing more can be found
        }
        return members;
    }

    private static boolean isPid(Path entry) {
        String name = entry.getFileName().toString();
        return !name.isEmpty() && name.chars().allMatch(Character::isDigit);
    }

    /**
     * Field 5 of {@code /proc/PID/stat}; -1 when unreadable (the process is gone). The command name
     * (field 2) is in parentheses and may hold anything, so fields are counted after its last ')'.
     */
    private static long groupOf(Path process) {
        try {
            String stat = new String(Files.readAllBytes(process.resolve("stat")), StandardCharsets.ISO_8859_1);
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ", 4);
            // after the name: state, ppid, pgrp
            return Long.parseLong(fields[2]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
