package dev.fleet.mcp.relay;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The running processes of a wrapped server's tree, from one look at {@code /proc} (Linux): every
 * process that descends from an ancestor, and every member of a process group. Reading sends no signal.
 *
 * <p>The ancestor is this member. As a child subreaper it adopts every orphan of its child's tree, so
 * its descendants are that whole tree, a double-forked daemon in a session of its own included; the
 * child's process group is added for a member that could not become a subreaper. Without {@code /proc}
 * the JDK's {@link ProcessHandle#descendants} are all there is.
 */
final class ProcessTree {

    private static final Path PROC = Path.of("/proc");

    private ProcessTree() {
    }

    /** One process as {@code /proc/PID/stat} shows it. */
    private record Stat(boolean zombie, long parent, long group) {
    }

    /**
     * Every running process (zombies are not: {@link #runs}) that descends from {@code ancestor} (not
     * itself) or whose process group is {@code groupId} (none when 0), as handles (their starts pinned).
     */
    static List<ProcessHandle> running(long ancestor, long groupId) {
        Map<Long, Stat> table = table();
        if (table == null) {
            return ProcessHandle.of(ancestor).map(process -> process.descendants().filter(ProcessTree::runs).toList())
                    .orElse(List.of());
        }
        Map<Long, List<Long>> children = new HashMap<>();
        table.forEach((pid, stat) -> children.computeIfAbsent(stat.parent(), parent -> new ArrayList<>()).add(pid));
        Set<Long> found = new LinkedHashSet<>();
        // A zombie is walked through too: its children, reparented as it exits, may still show it as parent.
        Deque<Long> next = new ArrayDeque<>(children.getOrDefault(ancestor, List.of()));
        while (!next.isEmpty()) {
            long pid = next.pop();
            if (found.add(pid)) {
                next.addAll(children.getOrDefault(pid, List.of()));
            }
        }
        if (groupId > 0) {
            table.forEach((pid, stat) -> {
                if (stat.group() == groupId) {
                    found.add(pid);
                }
            });
        }
        List<ProcessHandle> running = new ArrayList<>();
        for (long pid : found) {
            if (!table.get(pid).zombie() && pid != ancestor) {
                ProcessHandle.of(pid).ifPresent(running::add);
            }
        }
        return running;
    }

    /**
     * Whether {@code process} runs: alive, and not a zombie. {@link ProcessHandle#isAlive} is true for a
     * zombie, which runs nothing and which no signal reaches, and which waits only to be reaped by
     * whoever adopted it: maybe not soon (pid 1 reaps when it likes).
     */
    static boolean runs(ProcessHandle process) {
        if (!process.isAlive()) {
            return false;
        }
        Stat stat = stat(PROC.resolve(Long.toString(process.pid())));
        return stat == null ? process.isAlive() : !stat.zombie();
    }

    /** Every process's stat by pid; null without {@code /proc}. */
    private static Map<Long, Stat> table() {
        Map<Long, Stat> table = new HashMap<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC, ProcessTree::isPid)) {
            for (Path entry : entries) {
                Stat stat = stat(entry);
                if (stat != null) {
                    table.put(Long.parseLong(entry.getFileName().toString()), stat);
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return table;
    }

    private static boolean isPid(Path entry) {
        String name = entry.getFileName().toString();
        return !name.isEmpty() && name.chars().allMatch(Character::isDigit);
    }

    /**
     * Whether a process whose main thread has exited still runs other threads: it is no zombie then, but a
     * process any signal still reaches and that must be ended with the tree ({@code Threads:} of its status
     * counts the exited main thread too, so a zombie's says 1). Unreadable: gone.
     */
    private static boolean otherThreadsRun(Path process) {
        try {
            for (String line : Files.readAllLines(process.resolve("status"), StandardCharsets.ISO_8859_1)) {
                if (line.startsWith("Threads:")) {
                    return Long.parseLong(line.substring("Threads:".length()).trim()) > 1;
                }
            }
        } catch (IOException | RuntimeException e) {
            return false;
        }
        return false;
    }

    /**
     * The fields of {@code /proc/PID/stat} a tree needs; null when unreadable (the process is gone).
     * The name (field 2) is in parentheses and may hold anything, so fields are counted after its
     * last ')': state, ppid, pgrp. Z (zombie) and X (dead) have exited and are not yet reaped, unless
     * other threads of the process run on ({@link #otherThreadsRun}).
     */
    private static Stat stat(Path process) {
        try {
            String stat = new String(Files.readAllBytes(process.resolve("stat")), StandardCharsets.ISO_8859_1);
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ", 4);
            if (fields.length < 4) {
                return null;
            }
            boolean exited = fields[0].equals("Z") || fields[0].equals("X");
            return new Stat(exited && !otherThreadsRun(process), Long.parseLong(fields[1]), Long.parseLong(fields[2]));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
