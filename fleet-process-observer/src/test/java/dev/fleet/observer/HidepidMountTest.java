package dev.fleet.observer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@code /proc} mounted {@code hidepid=2,subset=pid} (the probe's mount) in a new mount
 * namespace, observed by user {@code nobody}, who cannot see root's processes there: the listing
 * must be {@code permission_denied}, never a shorter list that reads a live duplicate as exited.
 * Needs root, {@code unshare} and {@code setpriv}; skipped with the reason otherwise.
 */
@EnabledOnOs(OS.LINUX)
class HidepidMountTest {

    private static final String NOBODY = "65534";

    @RegisterExtension
    final Spawned spawned = new Spawned();

    @TempDir
    Path scratch;

    @Test
    void hidepidWithSubsetPidIsPermissionDeniedForAnotherUser() throws Exception {
        requireRootUnshareAndSetpriv();
        Spawned.Marked rootsProcess = spawned.markedSleep();

        assertEquals("available=true reason=null seen=true", observeAsNobody("rw", rootsProcess.pid()),
                "the same harness over a plain proc mount sees root's process");
        assertEquals("available=false reason=permission_denied seen=false",
                observeAsNobody("hidepid=2,subset=pid", rootsProcess.pid()));
        assertEquals("available=false reason=permission_denied seen=false",
                observeAsNobody("hidepid=invisible", rootsProcess.pid()));
    }

    /**
     * The host audit's hidepid case, with real processes in a pid namespace of their own: a root-owned client (a
     * shell) starts the configured server as nobody and feeds its stdin from a pipe. Nobody's {@code fleet host}
     * look sees that client over a plain proc; under hidepid=2 it sees neither the client nor the pipe's holder,
     * and the server is then current without a client: never an orphan whose stop script would end it.
     */
    @Test
    void aServerWhoseClientHidepidHidesIsCurrentWithoutAClientNeverOrphaned() throws Exception {
        Assumptions.assumeTrue(run(List.of("unshare", "--pid", "--fork", "--mount-proc", "sh", "-c",
                "mount -o remount,hidepid=2 /proc && setpriv --reuid=" + NOBODY + " --regid=" + NOBODY
                        + " --clear-groups true && echo ok")).strip().equals("ok"),
                "this host cannot give root a pid namespace of its own with a hidepid proc, and run as nobody");
        Path sleep = Stream.of("/usr/bin/sleep", "/bin/sleep").map(Path::of).filter(Files::isExecutable).findFirst()
                .orElseThrow();

        assertEquals("state=current client=seen strays=0 stop=nothing", hostLookAsNobody("rw", sleep),
                "over a plain proc its client is seen");
        assertEquals("state=current client=none strays=0 stop=nothing", hostLookAsNobody("hidepid=2", sleep));
    }

    /**
     * HostLookOnce's answer, run as nobody in a new pid namespace whose proc is remounted with {@code options} once
     * the server runs. Its client is a root shell, not pid 1 (init is no client); the namespace's processes end with
     * its pid 1, when the look is done.
     */
    private String hostLookAsNobody(String options, Path sleep) throws IOException, InterruptedException {
        String classPath = readableClassPath();
        Path pidFile = scratch.resolve("server.pid");
        Files.deleteIfExists(pidFile);
        String script = """
                sh -c 'sleep 3600 | setpriv --reuid=%1$s --regid=%1$s --clear-groups "$0" 600 & echo $! >"$1"; wait' \
                    "$3" "$4" >/dev/null 2>&1 &
                i=0
                until [ -s "$4" ] && [ "$(tr '\\0' ' ' <"/proc/$(cat "$4")/cmdline" 2>/dev/null)" = "$3 600 " ]; do
                    i=$((i + 1)); [ $i -le 3000 ] || { echo "the server never started"; exit 1; }; sleep 0.1
                done
                mount -o remount,"$0" /proc || exit 1
                setpriv --reuid=%1$s --regid=%1$s --clear-groups "$1" -Xshare:off -cp "$2" \
                    dev.fleet.observer.HostLookOnce "$(cat "$4")" "$3" 600
                """.formatted(NOBODY);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return run(List.of("unshare", "--pid", "--fork", "--mount-proc", "sh", "-c", script, options, java, classPath,
                sleep.toString(), pidFile.toString())).strip();
    }

    private static void requireRootUnshareAndSetpriv() throws InterruptedException {
        String probe = run(List.of("unshare", "--mount", "--fork", "sh", "-c",
                "mount -t proc -o hidepid=2,subset=pid proc /proc && setpriv --reuid=" + NOBODY + " --regid=" + NOBODY
                        + " --clear-groups true && echo ok"));
        Assumptions.assumeTrue(probe.strip().equals("ok"), "this host cannot mount a hidepid proc in a new mount "
                + "namespace and run as nobody (root, unshare and setpriv are needed): " + probe.strip());
    }

    /** ObserveOnce's answer, run as nobody over a proc mounted with {@code options} in a new mount namespace. */
    private String observeAsNobody(String options, long registered) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return run(List.of("unshare", "--mount", "--fork", "sh", "-c",
                "mount -t proc -o \"$0\" proc /proc && exec setpriv --reuid=" + NOBODY + " --regid=" + NOBODY
                        + " --clear-groups \"$1\" -Xshare:off -cp \"$2\" dev.fleet.observer.ObserveOnce \"$3\"",
                options, java, readableClassPath(), Long.toString(registered))).strip();
    }

    /**
     * This module's classes, the domain's and RE2J, copied where nobody may read them (the build's
     * own copies may sit in a home directory only root can enter).
     */
    private String readableClassPath() throws IOException {
        Path root = scratch.resolve("classpath");
        if (Files.isDirectory(root)) {
            return classPathUnder(root);
        }
        Files.createDirectories(root);
        int i = 0;
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path source = Path.of(entry);
            String name = source.getFileName().toString();
            Path target = root.resolve(i++ + "-" + name);
            if (Files.isDirectory(source)) {
                copyTree(source, target);
            } else if (name.startsWith("fleet-") || name.startsWith("re2j")) {
                Files.copy(source, target);
            }
        }
        try (Stream<Path> all = Files.walk(scratch)) {
            for (Path path : all.toList()) {
                Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(
                        Files.isDirectory(path) ? "rwxr-xr-x" : "rw-r--r--"));
            }
        }
        return classPathUnder(root);
    }

    private static String classPathUnder(Path root) throws IOException {
        try (Stream<Path> entries = Files.list(root)) {
            return String.join(File.pathSeparator, entries.map(Path::toString).sorted().toList());
        }
    }

    private static void copyTree(Path source, Path target) throws IOException {
        try (Stream<Path> all = Files.walk(source)) {
            for (Path path : all.toList()) {
                Files.copy(path, target.resolve(source.relativize(path).toString()));
            }
        }
    }

    /** The command's stdout and stderr, bounded in time for a loaded host. */
    private static String run(List<String> command) throws InterruptedException {
        try {
            Process process = new ProcessBuilder(new ArrayList<>(command)).redirectErrorStream(true).start();
            process.getOutputStream().close();
            if (!process.waitFor(5, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                return "timed out: " + command;
            }
            return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return e.getMessage();
        }
    }
}
