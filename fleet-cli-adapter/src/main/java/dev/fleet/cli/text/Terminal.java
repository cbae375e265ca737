package dev.fleet.cli.text;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Whether a person is at the other end of a standard stream. */
public final class Terminal {

    private Terminal() {
    }

    /**
     * Whether stdin is a terminal. Linux names stdin's file in /proc; elsewhere the JVM's console
     * is asked, which exists only when stdout is a terminal too.
     */
    public static boolean stdinIsTerminal() {
        try {
            String stdin = Files.readSymbolicLink(Path.of("/proc/self/fd/0")).toString();
            return stdin.startsWith("/dev/pts/") || stdin.startsWith("/dev/tty") || stdin.equals("/dev/console");
        } catch (IOException | UnsupportedOperationException | SecurityException noProc) {
            return System.console() != null;
        }
    }
}
