package dev.fleet.mcp.relay;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The running processes of one process group, from {@code /proc} (Linux; elsewhere none): how the
 * wrapped server's processes are found after their parents are gone. Reading sends no signal.
 */
final class ProcessGroup {

    private static final Path PROC = Path.of("/proc");

    private ProcessGroup() {
    }

    /**
     * Every running process whose group is {@code groupId}, the leader included, as handles (their starts
     * pinned); zombies are not among them ({@link #runs}).
     */
    static List<ProcessHandle> members(long groupId) {
        List<ProcessHandle> members = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC, ProcessGroup::isPid)) {
            for (Path entry : entries) {
                String[] fields = statAfterName(entry);
                if (fields != null && !isZombie(fields[0]) && Long.parseLong(fields[2]) == groupId) {
                    ProcessHandle.of(Long.parseLong(entry.getFileName().toString())).ifPresent(members::add);
                }
            }
        } catch (IOException | RuntimeException e) {
            return members; // no /proc: nothing more can be found
        }
        return members;
    }

    /**
     * Whether {@code process} runs: alive, and not a zombie. {@link ProcessHandle#isAlive} is true for a
     * zombie, which runs nothing and which no signal reaches, and which waits only to be reaped by
     * whoever adopted it: maybe not soon (pid 1 reaps when it likes) or never (a JVM that is its own
     * subreaper, as a container's pid 1 is, reaps no orphan).
     */
    static boolean runs(ProcessHandle process) {
        if (!process.isAlive()) {
            return false;
        }
        String[] fields = statAfterName(PROC.resolve(Long.toString(process.pid())));
        return fields == null ? process.isAlive() : !isZombie(fields[0]);
    }

    private static boolean isPid(Path entry) {
        String name = entry.getFileName().toString();
        return !name.isEmpty() && name.chars().allMatch(Character::isDigit);
    }

    /** Z (zombie) or X (dead): exited, not yet reaped. */
    private static boolean isZombie(String state) {
        return state.equals("Z") || state.equals("X");
    }

    /**
     * The fields of {@code /proc/PID/stat} after the command name (state, ppid, pgrp, ...); null when
     * unreadable (the process is gone). The name (field 2) is in parentheses and may hold anything, so
     * fields are counted after its last ')'.
     */
    private static String[] statAfterName(Path process) {
        try {
            String stat = new String(Files.readAllBytes(process.resolve("stat")), StandardCharsets.ISO_8859_1);
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ", 4);
            return fields.length == 4 ? fields : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
