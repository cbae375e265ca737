package dev.fleet.observer;

import dev.fleet.domain.port.out.HostProcessTable;
import dev.fleet.domain.port.out.ProcessObserver;
import java.util.List;
import java.util.Locale;

/** Picks the process observer for the platform this JVM runs on. */
public final class ProcessObservers {

    private ProcessObservers() {
    }

    /**
     * Linux always gets the {@code /proc} reader, even when {@code /proc} looks unreadable: it then
     * reports the listing unavailable with its reason, where the JDK would silently list nothing.
     * Everywhere else the JDK's {@link ProcessHandle} does the listing.
     */
    public static ProcessObserver forThisPlatform() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        return os.startsWith("linux") ? new ProcfsProcessObserver() : new ProcessHandleObserver();
    }

    /**
     * {@code fleet host}'s look: {@code /proc} on Linux. Elsewhere no process table gives what §14 needs (a
     * process's stdin and the pipes it holds), so the look is empty and says why in a warning.
     */
    public static HostProcessTable hostTableForThisPlatform() {
        String os = System.getProperty("os.name", "");
        if (os.toLowerCase(Locale.ROOT).startsWith("linux")) {
            return new ProcfsHostProcessTable();
        }
        long ownPid = ProcessHandle.current().pid();
        return fleetServer -> HostProcessTable.Look.unread("", ownPid,
                List.of("fleet host reads the process table from /proc, which " + os + " does not have"));
    }
}
