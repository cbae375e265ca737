package dev.fleet.observer;

import dev.fleet.domain.port.out.ProcessObserver;
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
}
