package dev.fleet.observer;

import java.util.Locale;
import java.util.OptionalLong;

/**
 * This process's parent pid, read afresh at every call: on Linux from {@code /proc/self/stat} (field 4),
 * elsewhere from the JDK's {@link ProcessHandle}. A stdio server asks once a second whether it has
 * been reparented, which means the client that started it is gone. Reading sends no signal and
 * starts no process.
 */
public final class OwnParent {

    private static final String STAT = "/proc/self/stat";
    private static final boolean LINUX = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux");

    private final ProcFileReader reader = new ProcFileReader();

    /** The parent's pid now; empty when it cannot be read, or is 0 (a parent outside this pid namespace). */
    public synchronized OptionalLong pid() {
        if (!LINUX) {
            return ProcessHandle.current().parent().map(parent -> OptionalLong.of(parent.pid()))
                    .orElse(OptionalLong.empty());
        }
        int length = reader.readProcessFile(STAT);
        long ppid = length < 0 ? -1 : ProcStat.parentPid(reader.buffer(), length);
        return ppid > 0 ? OptionalLong.of(ppid) : OptionalLong.empty();
    }
}
