package dev.fleet.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A process whose main thread alone has exited while another thread runs on: {@code python3} starts a
 * thread that sleeps, then ends its main thread with {@code pthread_exit} (one call any program can make).
 * The process lives on, its main thread a zombie with an empty {@code cmdline}; its command line is
 * {@code python3 -c CODE MARKER}. Also the one reader of a process's state letter the tests share.
 */
public final class MainThreadExited {

    /** The program, for {@code python3 -c CODE MARKER}. */
    public static final String CODE = String.join("\n",
            "import ctypes, threading, time",
            "threading.Thread(target=time.sleep, args=(600,)).start()",
            "time.sleep(0.05)",
            "ctypes.CDLL(None).pthread_exit(None)");

    private MainThreadExited() {
    }

    /** Started with its stdin a pipe of this JVM's, returned once its main thread has exited. */
    public static Process start(String marker) throws IOException, InterruptedException {
        return start(List.of(), marker);
    }

    /** The same, started through {@code launcher} ({@code setsid}, say). */
    public static Process start(List<String> launcher, String marker) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(launcher);
        command.addAll(List.of("python3", "-c", CODE, marker));
        Process process = new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        Patience.await(Duration.ofSeconds(30), Duration.ofMillis(20),
                () -> "Z".equals(state(process.pid())) || !process.isAlive(), "the main thread of python3 exits");
        if (!process.isAlive()) {
            throw new AssertionError("python3 ended, exit " + process.exitValue());
        }
        return process;
    }

    /** Field 3 of {@code /proc/PID/stat}, the state letter, or "" when gone. */
    public static String state(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
        } catch (IOException gone) {
            return "";
        }
    }
}
