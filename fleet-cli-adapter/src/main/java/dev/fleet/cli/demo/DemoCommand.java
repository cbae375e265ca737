package dev.fleet.cli.demo;

import dev.fleet.cli.demo.DemoFailure;
import dev.fleet.cli.demo.DemoFleet;
import dev.fleet.cli.demo.DemoStory;
import dev.fleet.cli.demo.DemoWatch;
import dev.fleet.cli.exit.ConfigurationException;
import dev.fleet.cli.exit.ExitCodes;
import dev.fleet.cli.jar.RunningJar;
import dev.fleet.cli.option.DurationConverter;
import dev.fleet.cli.option.RosterOption;
import dev.fleet.domain.Failures;
import dev.fleet.domain.lifecycle.Cohort;
import dev.fleet.registry.postgresql.PostgresLocation;
import dev.fleet.registry.sqlite.RegistryLocation;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code fleet demo}: the contract's story ({@link DemoStory}) with real {@code serve} processes from
 * this very jar, on a temporary registry, with this process as their MCP client. Exit 0 only when
 * every verdict the story expects was seen, 1 when one was not or the story could not go on (one
 * line on stderr says why), 130 when interrupted; the temporary registry and every process are
 * cleaned up in each case. The verb is the composition root's (its exit codes, how this jar is
 * started, how the user runs it again); the story and its servers are {@code cli.demo}'s.
 */
@Command(name = DemoCommand.NAME,
        description = {"Launch the default five members on a temporary registry and show what the fleet tools see.",
            "With FLEET_DEMO_POSTGRES=postgresql://USER@HOST:PORT/DB, a last step shows two hosts on that "
                    + "database, which must hold no live row of the default binding (a running member whose last "
                    + "heartbeat is within 90 s): the step fails naming any such row (role, runtime_id, pid, "
                    + "host_id)."})
public final class DemoCommand implements Callable<Integer> {

    /** The verb's name, declared here once: {@code FleetCli} registers the verb by it. */
    public static final String NAME = "demo";

    /** Variables that would point a server at another roster, registry or cohort than the demo's. */
    private static final List<String> FOREIGN_ENVIRONMENT = List.of(RosterOption.ENV,
            RegistryLocation.REGISTRY_ENV, "FLEET_JAVA_OPTS", Cohort.ENV_VARIABLE);

    @Spec
    private CommandSpec spec;

    @Option(names = "--pause", defaultValue = "0s", paramLabel = "DUR", converter = DurationConverter.class,
            description = "Hold each step this long, to follow it in the dashboard the demo names: 0s to 10m "
                    + "(default: ${DEFAULT-VALUE}; 500ms, 2s, 5m).")
    private Duration pause;

    @Override
    public Integer call() {
        Duration hold = DurationConverter.within("--pause", pause, Duration.ZERO, DemoWatch.MOST_PAUSE);
        checkSharedRegistry(System.getenv(DemoStory.SHARED_REGISTRY_ENV));
        FleetInvocation fleetAgain = FleetInvocation.ofThisProcess();
        DemoWatch watch = new DemoWatch(fleetAgain.command(), fleetAgain.neededDirectory(), hold);
        PrintWriter err = spec.commandLine().getErr();
        quietLibraryLogs();
        Path dir;
        try {
            dir = Files.createTempDirectory("fleet-demo-");
        } catch (IOException e) {
            err.println("fleet demo: cannot create a temporary directory: " + Failures.oneLine(e));
            return ExitCodes.NEGATIVE;
        }
        DemoFleet fleet;
        try {
            fleet = DemoFleet.in(dir, DemoCommand::fleetJar, spec.commandLine().getOut());
        } catch (IOException e) {
            deleteRecursively(dir);
            err.println("fleet demo: cannot prepare " + dir + ": " + Failures.oneLine(e));
            return ExitCodes.NEGATIVE;
        }
        AtomicBoolean interrupted = new AtomicBoolean();
        // A signal (Ctrl-C, a SIGTERM) ends the JVM through its shutdown hooks: this one cleans up,
        // then says so in one line. The JVM exits 130 for SIGINT and 143 for SIGTERM.
        Thread cleanup = new Thread(() -> {
            interrupted.set(true);
            fleet.close();
            deleteRecursively(dir);
            err.println("fleet demo: interrupted; its servers are stopped and its temporary registry removed");
            err.flush();
        }, "fleet-demo-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        String failure = tell(new DemoStory(fleet, spec.commandLine().getOut(), watch), interrupted);
        boolean shuttingDown = false;
        if (!interrupted.get()) {
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
                fleet.close();
                deleteRecursively(dir);
            } catch (IllegalStateException signalArrived) {
                shuttingDown = true; // a signal arrived just now: the hook is cleaning up
            }
        }
        if (interrupted.get() || shuttingDown) {
            return ExitCodes.INTERRUPTED; // the cleanup hook says so
        }
        if (failure == null) {
            return ExitCodes.OK;
        }
        List<String> left = fleet.stillRunning();
        err.println("fleet demo: " + failure + "; " + (left.isEmpty() ? "its servers are stopped"
                : "servers " + String.join(", ", left) + " have their stdin closed but have not exited yet")
                + (Files.exists(dir) ? " and " + dir + " is left behind" : " and its temporary registry is removed"));
        return ExitCodes.NEGATIVE;
    }

    /**
     * {@code FLEET_DEMO_POSTGRES}, unset or empty for no last step, or a PostgreSQL URL it can use: anything else
     * is one line and exit 2 before the demo starts, never a step skipped without a word or failed after
     * all the others. Not shown back: a value set by mistake may be another variable's secret.
     */
    private static void checkSharedRegistry(String shared) {
        if (shared == null || shared.isEmpty()) {
            return;
        }
        if (!PostgresLocation.isUrl(shared)) {
            throw new ConfigurationException(DemoStory.SHARED_REGISTRY_ENV + " is set but is no postgresql:// URL: "
                    + "set it to postgresql://USER@HOST:PORT/DB for the demo's last step, or unset it");
        }
        try {
            PostgresLocation.parse(shared);
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(e.getMessage() + " (from $" + DemoStory.SHARED_REGISTRY_ENV + ")");
        }
    }

    /** Tells the story: null when every expected verdict was seen, else why not, in a line's words. */
    private static String tell(DemoStory story, AtomicBoolean interrupted) {
        try {
            return story.tell() ? null : story.failed() + " expectation(s) not met (see the FAIL lines above)";
        } catch (Exception e) {
            // Once interrupted, the failure is the interrupt's doing, and the cleanup hook says so.
            return interrupted.get() ? "interrupted" : story.where() + DemoFailure.describe(e);
        }
    }

    /**
     * {@code java -jar fleet.jar ARGS}, not started, as the demo's servers run: this very java and
     * jar, the options every serving JVM takes, and no variable that would point a server at
     * another roster, registry or cohort than the demo's. A server's stderr is not the story's.
     */
    private static ProcessBuilder fleetJar(List<String> args) {
        List<String> command = new ArrayList<>(List.of(RunningJar.javaBinary()));
        command.addAll(RunningJar.DEMO_JVM_OPTIONS);
        command.addAll(RunningJar.SERVING_JVM_OPTIONS);
        command.addAll(List.of("-jar", RunningJar.path().toString()));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
        FOREIGN_ENVIRONMENT.forEach(builder.environment()::remove);
        RunningJar.JVM_ENVIRONMENT.forEach(builder.environment()::putIfAbsent);
        return builder;
    }

    /**
     * The SDK and Reactor log a failed request with its whole stack; the demo says what failed in
     * one line instead. Only for this process, only where the user has not set a level of their own.
     */
    private static void quietLibraryLogs() {
        for (String logger : List.of("io.modelcontextprotocol", "reactor")) {
            String property = "org.slf4j.simpleLogger.log." + logger;
            if (System.getProperty(property) == null) {
                System.setProperty(property, "off");
            }
        }
    }

    /** Best effort, never throws: whether the folder is gone is told by the caller. */
    private static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // Left behind; the caller reports it.
        }
    }
}
