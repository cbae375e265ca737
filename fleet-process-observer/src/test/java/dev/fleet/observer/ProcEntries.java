package dev.fleet.observer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** What a test reads of {@code /proc} itself, to find the processes it started and check the look against. */
final class ProcEntries {

    private ProcEntries() {
    }

    /** The pid whose argv[0] is {@code marker}, or -1. */
    static long withArgv0(String marker) {
        byte[] wanted = (marker + "\0").getBytes(StandardCharsets.UTF_8);
        try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
            return entries.filter(entry -> entry.getFileName().toString().chars().allMatch(Character::isDigit))
                    .filter(entry -> startsWith(read(entry.resolve("cmdline")), wanted))
                    .mapToLong(entry -> Long.parseLong(entry.getFileName().toString())).findFirst().orElse(-1);
        } catch (IOException e) {
            return -1;
        }
    }

    /** A child of {@code parent} in state Z, or -1. */
    static long zombieChildOf(long parent) {
        try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
            return entries.filter(entry -> entry.getFileName().toString().chars().allMatch(Character::isDigit))
                    .filter(entry -> {
                        String stat = new String(read(entry.resolve("stat")), StandardCharsets.UTF_8);
                        String[] fields = stat.substring(stat.lastIndexOf(')') + 1).trim().split(" ");
                        return fields.length > 2 && fields[0].equals("Z") && fields[1].equals(Long.toString(parent));
                    })
                    .mapToLong(entry -> Long.parseLong(entry.getFileName().toString())).findFirst().orElse(-1);
        } catch (IOException e) {
            return -1;
        }
    }

    static Set<Long> threadsOf(long pid) {
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            return tasks.map(task -> Long.parseLong(task.getFileName().toString())).collect(Collectors.toSet());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException gone) {
            return new byte[0];
        }
    }

    private static boolean startsWith(byte[] text, byte[] prefix) {
        if (text.length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (text[i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    /** Thread {@code tid} of the hand-made process {@code pid} under {@code proc}: its {@code task/TID} cmdline and stat. */
    static void fakeThread(Path proc, long pid, long tid, String cmdline, String stat) throws IOException {
        Path thread = Files.createDirectories(proc.resolve(pid + "/task/" + tid));
        Files.write(thread.resolve("cmdline"), cmdline.getBytes(StandardCharsets.UTF_8));
        Files.writeString(thread.resolve("stat"), stat);
    }

    /** What field 9 ({@code flags}) of a user process's stat shows: {@code PF_RANDOMIZE}. */
    static final long USER_FLAGS = 0x400000;
    /** A kernel thread's: {@code PF_KTHREAD} among others. */
    static final long KERNEL_THREAD_FLAGS = 0x208040;
    /** A thread that has begun to exit: {@code PF_EXITING} added to a user process's flags. */
    static final long EXITING_FLAGS = USER_FLAGS | 0x4;

    /** A hand-made stat line with field 9 ({@code flags}) set to {@code flags}. */
    static String withFlags(String stat, long flags) {
        int afterComm = stat.lastIndexOf(')') + 2;
        List<String> fields = new ArrayList<>(List.of(stat.substring(afterComm).split(" ", -1)));
        fields.set(9 - 3, Long.toString(flags));
        return stat.substring(0, afterComm) + String.join(" ", fields);
    }

    static String link(long pid, int fd) {
        try {
            return Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "fd", Integer.toString(fd))).toString();
        } catch (IOException e) {
            return e.toString();
        }
    }
}
