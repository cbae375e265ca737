package dev.fleet.mcp.relay;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import java.util.concurrent.CompletableFuture;

/**
 * The three Linux calls a wrapping member needs and the JDK 17 cannot make (it has no FFM): become a
 * child subreaper, so that every orphan of the served tree is adopted here and none escapes
 * ({@code prctl(PR_SET_CHILD_SUBREAPER)}); see which child of this process has exited, without reaping
 * it ({@code waitid(P_ALL, WNOWAIT)}); and reap one given pid ({@code waitpid(pid, WNOHANG)}), never
 * any pid ({@code waitpid(-1)} would take the exit status of the JDK's own child from it).
 *
 * <p>Through JNA, loaded once. JNA unpacks its native part into {@code jna.tmpdir}, by default
 * {@code $XDG_CACHE_HOME/JNA/temp} ({@code ~/.cache/JNA/temp}; {@code java.io.tmpdir} when that is not
 * writable), and deletes it once loaded; it prints nothing. Loading costs a JVM some 100 ms of class
 * loading on a quiet two-core host (docs/ARCHITECTURE.md), so a member that wraps a command starts it
 * early, on a thread of its own ({@link #preload}), while the rest of its start goes on.
 */
final class NativeProcesses {

    private static final int PR_SET_CHILD_SUBREAPER = 36;
    private static final int P_ALL = 0;
    private static final int WNOHANG = 1;
    private static final int WEXITED = 4;
    private static final int WNOWAIT = 0x01000000;
    private static final int EINTR = 4;
    /** {@code siginfo_t} is 128 bytes on Linux. */
    private static final int SIGINFO_BYTES = 128;
    /**
     * Where {@code si_pid} lies in {@code siginfo_t}: after {@code si_signo}, {@code si_errno} and
     * {@code si_code}, in a union aligned as a pointer is (offset 16 on 64-bit Linux, 12 on 32-bit).
     */
    private static final int SI_PID_OFFSET = Native.POINTER_SIZE == 8 ? 16 : 12;

    private static final Object LOCK = new Object();
    private static CompletableFuture<Loaded> loading;

    /** The C library's functions, as JNA binds them. */
    interface LibC extends Library {
        int prctl(int option, long arg2, long arg3, long arg4, long arg5);

        int waitid(int idType, int id, Pointer info, int options);

        int waitpid(int pid, Pointer status, int options);
    }

    /** The calls, or why there are none (for the one warning line). */
    record Loaded(NativeProcesses calls, String failure) {
    }

    /** What {@link #awaitExitedChild} found: a child's pid, or none left to wait for. */
    static final long NO_CHILD = -1;

    private final LibC libc;

    private NativeProcesses(LibC libc) {
        this.libc = libc;
    }

    /** Starts loading JNA on a thread of its own, once; {@link #load} then waits for it. */
    static void preload() {
        synchronized (LOCK) {
            if (loading == null) {
                loading = new CompletableFuture<>();
                Thread thread = new Thread(() -> loading.complete(loadNow()), "fleet-relay-native-load");
                thread.setDaemon(true);
                thread.start();
            }
        }
    }

    /** The calls, once loaded (waiting for {@link #preload} when it is under way). */
    static Loaded load() {
        preload();
        return loading.join();
    }

    private static Loaded loadNow() {
        if (!Platform.isLinux()) {
            return new Loaded(null, "not Linux");
        }
        try {
            return new Loaded(new NativeProcesses(Native.load(Platform.C_LIBRARY_NAME, LibC.class)), null);
        } catch (LinkageError | RuntimeException e) {
            return new Loaded(null, "JNA cannot load the C library: " + e);
        }
    }

    /** Makes this process a child subreaper; the errno when Linux refuses. */
    int becomeSubreaper() {
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0 ? 0 : Native.getLastError();
    }

    /**
     * Waits until some child of this process has exited and returns its pid, leaving it unreaped
     * (whoever waits for it still gets its status); {@link #NO_CHILD} once this process has no child.
     */
    long awaitExitedChild() {
        Memory info = new Memory(SIGINFO_BYTES);
        while (true) {
            info.clear();
            if (libc.waitid(P_ALL, 0, info, WEXITED | WNOWAIT) == 0) {
                int pid = info.getInt(SI_PID_OFFSET);
                if (pid > 0) {
                    return pid;
                }
            } else if (Native.getLastError() != EINTR) {
                return NO_CHILD; // ECHILD: nothing left to wait for (any other error: nothing to do either)
            }
        }
    }

    /** Reaps {@code pid}, a child of this process that has exited; false when it is not one (yet). */
    boolean reap(long pid) {
        return libc.waitpid(Math.toIntExact(pid), Pointer.NULL, WNOHANG) > 0;
    }
}
