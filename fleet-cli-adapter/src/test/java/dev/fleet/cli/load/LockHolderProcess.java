package dev.fleet.cli.load;

import static dev.fleet.cli.load.LoadHelpers.within;

import dev.fleet.cli.testing.FleetJar;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A {@link RegistryLockHolder} of the load-and-fault suite ({@link LoadAndFaultIT}), started as a
 * process of its own on the test class path: the suite waits for the line that says it holds the
 * registry, may stop and resume it, and tells it to let go. Its stderr goes to the run's holder log,
 * quoted when it says something else; the run destroys it at the end, whatever happened.
 */
final class LockHolderProcess {

    private final LoadRun run;
    private final Process holder;
    private final BufferedReader out;

    private LockHolderProcess(LoadRun run, Process holder) {
        this.run = run;
        this.holder = holder;
        this.out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
    }

    /** A holder in {@code mode} ({@code transaction} or {@code exclusive}) on the run's registry. */
    static LockHolderProcess start(LoadRun run, String mode) throws IOException {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Process holder = new ProcessBuilder(FleetJar.javaBinary(), "-Xmx32m", "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC", "-XX:-UsePerfData", "-cp", classPath, RegistryLockHolder.class.getName(),
                run.registry.toString(), mode)
                .redirectError(ProcessBuilder.Redirect.appendTo(run.holderErrors.toFile()))
                .start();
        run.helpers.add(holder);
        return new LockHolderProcess(run, holder);
    }

    void release() throws Exception {
        OutputStream in = holder.getOutputStream();
        in.write("release\n".getBytes(StandardCharsets.UTF_8));
        in.flush();
        awaitLine("released");
        if (!holder.waitFor(run.scaled(Duration.ofSeconds(10)).toMillis(), TimeUnit.MILLISECONDS)) {
            run.found.problem("lock holder pid " + holder.pid() + " did not exit after releasing");
        }
    }

    void awaitLine(String prefix) throws Exception {
        String line = within(run.scaled(Duration.ofSeconds(60)), "lock holder's '" + prefix + "'", out::readLine);
        if (line == null || !line.startsWith(prefix)) {
            throw new AssertionError("lock holder pid " + holder.pid() + " said " + line + " instead of " + prefix
                    + "; its stderr: " + Files.readString(run.holderErrors, StandardCharsets.UTF_8).strip());
        }
    }

    /** {@code kill -SIGNAL}: STOP and CONT stop the holder inside its transaction and resume it. */
    void signal(String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(holder.pid()))
                .redirectErrorStream(true).start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            kill.destroyForcibly();
            throw new AssertionError("kill -" + signal + " " + holder.pid() + " failed");
        }
    }
}
