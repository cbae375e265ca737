package dev.fleet.observer;

import dev.fleet.domain.ObservedProcess;
import java.io.File;
import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * One pass over {@code /proc}. Holds the state of a single scan (reusable buffer, user-name cache),
 * so it is used once and thrown away; the compiled patterns it is given outlive it.
 *
 * <p>Per pid it reads {@code cmdline} only, and reads {@code stat} and the owner only for the few
 * processes it reports (a server match or a registered pid): on a busy host almost every process is
 * rejected after one small read. Asked for ancestors, it then reads the few processes above the server
 * matches ({@link Ancestors}), each the same way.
 */
final class ProcfsScan {

    private final Path procRoot;
    private final String procPrefix;
    private final ServerPatterns serverPatterns;
    private final LongLines longLines;
    private final Set<Long> registeredPids;
    private final long bootMillis;
    private final long clockTicksPerSecond;
    private final ProcFileReader reader = new ProcFileReader();
    private final Map<Integer, String> userNames = new HashMap<>();

    ProcfsScan(Path procRoot, ServerPatterns serverPatterns, LongLines longLines, Set<Long> registeredPids,
            long clockTicksPerSecond) {
        this.procRoot = procRoot;
        this.longLines = longLines;
        this.procPrefix = procRoot + "/";
        this.serverPatterns = serverPatterns;
        this.registeredPids = registeredPids;
        this.clockTicksPerSecond = clockTicksPerSecond;
        // btime is read once per scan, as ps does. The JDK reads it once per JVM, so the two agree
        // unless the wall clock has been stepped since that JVM first used ProcessHandle.
        this.bootMillis = bootMillis(procPrefix, reader);
    }

    /**
     * Every reported process, with the ancestors of the server matches when {@code ancestors} is set, ordered
     * by pid. Fails only when {@code /proc} itself cannot be listed.
     */
    List<ObservedProcess> run(boolean ancestors) throws IOException {
        List<ObservedProcess> found = new ArrayList<>();
        // Without a pattern only registered pids can be reported, so nothing else is read (a server
        // asks this of its own pid at start and at every heartbeat). Pids still come from the
        // listing: /proc/<tid> of a thread answers too, but a thread is no process.
        boolean registeredOnly = serverPatterns.isEmpty();
        for (String name : listProcRoot(procRoot)) {
            long pid = pidOf(name);
            if (pid > 0 && (!registeredOnly || registeredPids.contains(pid))) {
                ObservedProcess process = inspect(pid, false);
                if (process != null) {
                    found.add(process);
                }
            }
        }
        if (ancestors) {
            found.addAll(Ancestors.of(found, pid -> inspect(pid, true)));
        }
        found.sort(Comparator.comparingLong(ObservedProcess::pid));
        return found;
    }

    /**
     * The names in {@code /proc}. {@link File#list()} costs half of a {@code DirectoryStream} (no
     * {@code Path} per entry) but only answers null on failure, so a failure is opened again as a
     * stream just to learn its reason ({@code AccessDeniedException} and the like).
     */
    static String[] listProcRoot(Path procRoot) throws IOException {
        String[] names = procRoot.toFile().list();
        if (names != null) {
            return names;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(procRoot)) {
            entries.iterator().hasNext();
        } catch (DirectoryIteratorException e) {
            throw e.getCause();
        }
        throw new IOException("cannot list " + procRoot);
    }

    /**
     * The process if it is to be reported, or null when it is neither a server nor registered (nor {@code
     * wanted} whatever it is, as an ancestor is), or has gone.
     */
    private ObservedProcess inspect(long pid, boolean wanted) {
        String directory = procPrefix + pid;
        boolean registered = wanted || registeredPids.contains(pid);
        int length = reader.readProcessFile(directory + "/cmdline");
        if (length < 0 && !registered) {
            return null;
        }
        // Kernel threads and zombies have an empty cmdline: nothing to match (a registered pid is still
        // looked up: a kernel thread is alive; a zombie, or a process being killed, has nothing that runs on
        // and is dropped below). So has a process whose main thread alone has exited, which lives on: its
        // command line is read from a live thread.
        ExitedLeaders.Remains remains = null; // what runs on, once its main thread is seen dead or exiting
        if (length == 0) {
            int statLength = reader.readProcessFile(directory + "/stat");
            if (statLength >= 0 && ProcStat.isExiting(reader.buffer(), statLength)) {
                remains = ExitedLeaders.remains(directory, reader);
                if (remains.liveThread() != null) {
                    length = reader.readProcessFile(remains.liveThread() + "/cmdline");
                }
            }
        }
        String arguments = length <= 0 ? "" : CommandLines.arguments(reader.buffer(), length);
        String commandLine = CommandLines.joined(arguments);
        Supplier<String> key = LongLines.keyOf(reader.buffer(), Math.max(0, length));
        boolean matchesServer = !commandLine.isEmpty() && serverPatterns.matches(commandLine, key);
        if (!matchesServer && !registered) {
            return null;
        }
        // Patterns saw the line as it is; what is kept and shown has its secrets masked while the arguments are
        // still apart, and is capped. Made here, while the buffer still holds the bytes a long line's key is of.
        String shown = longLines.shown(arguments, key);
        length = reader.readProcessFile(directory + "/stat");
        if (remains == null && length >= 0 && ProcStat.isExiting(reader.buffer(), length)) {
            // Its main thread began to exit after its command line was read: it runs on only in another thread.
            remains = ExitedLeaders.remains(directory, reader);
            length = reader.readProcessFile(directory + "/stat");
        }
        if (length < 0 || remains != null && !remains.runs()) {
            return null; // exited mid-scan, exiting, or exited and not yet reaped: absent, not an error
        }
        Instant startedAt = startInstant(ProcStat.startTicks(reader.buffer(), length));
        long parent = ProcStat.parentPid(reader.buffer(), length);
        Owner owner = owner(Path.of(directory));
        if (owner.gone()) {
            return null;
        }
        // Pid 0 is no process: it is the parent the kernel gives init and its own threads.
        return new ObservedProcess(pid, startedAt, shown, owner.name(), matchesServer, parent > 0 ? parent : null);
    }

    /** The JDK's arithmetic exactly: boot millis + ticks * 1000 / CLK_TCK, truncated to the millisecond. */
    private Instant startInstant(long ticks) {
        return startInstant(bootMillis, ticks, clockTicksPerSecond);
    }

    /** Boot millis + ticks * 1000 / CLK_TCK, or null when either is unknown (negative). */
    static Instant startInstant(long bootMillis, long ticks, long clockTicksPerSecond) {
        if (ticks < 0 || bootMillis < 0) {
            return null;
        }
        return Instant.ofEpochMilli(bootMillis + ticks * 1000 / clockTicksPerSecond);
    }

    /** {@code btime} of {@code <procPrefix>stat} in milliseconds since the epoch, or -1 when unreadable. */
    static long bootMillis(String procPrefix, ProcFileReader reader) {
        int length = reader.readToEnd(procPrefix + "stat");
        long bootSeconds = length < 0 ? -1 : ProcStat.bootTimeSeconds(reader.buffer(), length);
        return bootSeconds < 0 ? -1 : bootSeconds * 1000;
    }

    /** The owner of {@code /proc/<pid>}, which is what ProcessHandle reports as the process user. */
    private Owner owner(Path directory) {
        try {
            Integer uid = (Integer) Files.getAttribute(directory, "unix:uid");
            String name = userNames.get(uid);
            if (name == null) {
                // Resolving a uid reads the passwd database; a thousand processes share a few users.
                name = Files.getOwner(directory).getName();
                userNames.put(uid, name);
            }
            return new Owner(false, name);
        } catch (NoSuchFileException e) {
            return new Owner(true, null);
        } catch (IOException | RuntimeException e) {
            return new Owner(false, null);
        }
    }

    private record Owner(boolean gone, String name) {
    }

    /** Process directories are the all-digit names; everything else in /proc is kernel state. */
    static long pidOf(String name) {
        if (name.isEmpty() || name.length() > 18) {
            return -1;
        }
        long pid = 0;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            pid = pid * 10 + (c - '0');
        }
        return pid;
    }
}
