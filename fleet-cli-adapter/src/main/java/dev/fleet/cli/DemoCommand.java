package dev.fleet.cli;

import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.verdict.CanonicalJson;
import dev.fleet.registry.sqlite.SqliteRegistryReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code fleet demo}: the contract's story with real {@code serve} processes from this very jar, on a
 * temporary registry, with this process as their MCP client. Exit 0 only when every verdict the
 * story expects was seen, 1 when one was not or the story could not go on (one line on stderr says
 * why), 130 when interrupted; the temporary registry and every process are cleaned up in each case.
 */
@Command(name = "demo",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:every expected verdict was seen", "1:one was not, or a step failed (one line on stderr)",
            "130:interrupted by SIGINT (143 by SIGTERM); its servers are stopped (one line on stderr)", ExitCodes.INTERNAL_LINE},
        description = "Launch the default five members on a temporary registry and show what the fleet tools see.")
final class DemoCommand implements Callable<Integer> {

    // Not a FleetVerb: this verb writes the registry (or starts what does), and the read-only verbs'
    // shared base must have no such subclass for the assessment path's reach rule.
    @Spec
    private CommandSpec spec;

    /** The shell's convention for a command ended by a signal. */
    private static final String FIRST_COHORT = "demo-client-1";
    private static final String SECOND_COHORT = "demo-client-2";

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        quietLibraryLogs();
        Path dir;
        try {
            dir = Files.createTempDirectory("fleet-demo-");
        } catch (IOException e) {
            err.println("fleet demo: cannot create a temporary directory: " + e.getMessage());
            return ExitCodes.NEGATIVE;
        }
        Path registry = dir.resolve("control_plane.sqlite3");
        DemoFleet fleet;
        try {
            fleet = new DemoFleet(registry, demoRoster(dir.resolve("roster.json"), registry),
                    scratchRepository(dir.resolve("repository")), spec.commandLine().getOut());
        } catch (IOException e) {
            deleteRecursively(dir);
            err.println("fleet demo: cannot prepare " + dir + ": " + e.getMessage());
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
        Story story = new Story(spec.commandLine().getOut());
        String failure = null;
        boolean shuttingDown = false;
        try {
            if (tell(fleet, registry, story)) {
                return ExitCodes.OK;
            }
            failure = story.failed + " expectation(s) not met (see the FAIL lines above)";
        } catch (Exception e) {
            if (interrupted.get()) {
                return ExitCodes.INTERRUPTED; // the cleanup hook says so
            }
            failure = story.where() + DemoFailure.describe(e);
        } finally {
            if (!interrupted.get()) {
                try {
                    Runtime.getRuntime().removeShutdownHook(cleanup);
                    fleet.close();
                    deleteRecursively(dir);
                } catch (IllegalStateException signalArrived) {
                    shuttingDown = true; // a signal arrived just now: the hook is cleaning up
                }
            }
        }
        if (interrupted.get() || shuttingDown) {
            return ExitCodes.INTERRUPTED;
        }
        if (failure != null) {
            List<String> left = fleet.stillRunning();
            err.println("fleet demo: " + failure + "; " + (left.isEmpty() ? "its servers are stopped"
                    : "servers " + String.join(", ", left) + " have their stdin closed but have not exited yet")
                    + (Files.exists(dir) ? " and " + dir + " is left behind" : " and its temporary registry is removed"));
        }
        return ExitCodes.NEGATIVE;
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

    private boolean tell(DemoFleet fleet, Path registry, Story story) throws Exception {
        Roster roster = Roster.defaultRoster();
        PrintWriter out = story.out;

        story.step("1. One MCP client (cohort " + FIRST_COHORT + ") launches the five default members over stdio");
        out.println("   registry: " + registry);
        fleet.launch(roster.members(), FIRST_COHORT);
        story.expect("five rows registered by the servers themselves", awaitRunning(registry, 5));

        story.step("2. The controller assesses the fleet");
        DemoVerdict first = fleet.assess("prgs-controller");
        first.print(out);
        story.expect("gate satisfied with 5 running", first.gateSatisfied() && first.runningMembers() == 5);
        DemoSubscription subscription = fleet.subscribe("prgs-controller");
        int notified = subscription.received();
        out.println("   the controller's client subscribes to fleet://verdict");

        story.step("3. A second client (cohort " + SECOND_COHORT + ") launches another author");
        fleet.launch(List.of(roster.memberByProfile("prgs-author").orElseThrow()), SECOND_COHORT);
        story.expect("six rows registered", awaitRunning(registry, 6));
        story.expect("the subscribed client was notified that the verdict changed (notifications/resources/updated)",
                subscription.awaitMoreThan(notified, DemoFleet.PATIENCE));

        story.step("4. The reconciler assesses the fleet");
        DemoVerdict second = fleet.assess("prgs-reconciler");
        second.print(out);
        story.expect("duplicate_member and cohort_split",
                second.codes().equals(List.of("duplicate_member", "cohort_split")));
        story.expect("6 running against 5 expected", second.runningMembers() == 6);
        DemoVerdict fromController = fleet.assess("prgs-controller");
        story.expect("the controller's digest equals the reconciler's (" + abbreviate(second.digest()) + ")",
                fromController.digest().equals(second.digest()));

        story.step("5. The clients leave: each closes its server's stdin");
        fleet.close();
        List<RegistryRow> rows = new SqliteRegistryReader(registry).readAll().rows();
        Table table = new Table("   PROFILE", "PID", "COHORT", "STATUS", "STOPPED_AT");
        rows.forEach(row -> table.row("   " + row.profile(), row.pid(), row.cohortId(), row.status(), row.stoppedAt()));
        out.print(table.render());
        story.expect("every server marked its row stopped and exited 0", rows.size() == 6
                && rows.stream().allMatch(row -> "stopped".equals(row.status())) && fleet.allExitedCleanly());

        return story.end();
    }

    /** Polls the registry (read-only) until it shows {@code count} running rows, for up to {@link DemoFleet#PATIENCE}. */
    private static boolean awaitRunning(Path registry, int count) throws InterruptedException {
        SqliteRegistryReader reader = new SqliteRegistryReader(registry);
        Predicate<RegistryRead> done = read -> read.readable()
                && read.rows().stream().filter(row -> "running".equals(row.status())).count() == count;
        long deadline = System.nanoTime() + DemoFleet.PATIENCE.toNanos();
        do {
            if (done.test(reader.readAll())) {
                return true;
            }
            Thread.sleep(50);
        } while (System.nanoTime() < deadline);
        return done.test(reader.readAll());
    }

    /**
     * The default roster, except that only this demo's servers look like servers: their command
     * lines name its registry. Other fleet servers on this host then neither disturb the story nor
     * are disturbed by it.
     */
    private static Path demoRoster(Path file, Path registry) throws IOException {
        Roster defaults = Roster.defaultRoster();
        Map<String, Object> roster = new LinkedHashMap<>();
        roster.put("binding", Map.of("remote", defaults.binding().remote(), "org", defaults.binding().org(),
                "repo", defaults.binding().repo()));
        roster.put("members", defaults.members().stream().map(member -> Map.of("namespace", member.namespace(),
                "profile", member.profile(), "role", member.role())).toList());
        roster.put("server_process_patterns",
                List.of("fleet\\.jar serve .*--registry " + Pattern.quote(registry.toString()) + "(\\s|$)"));
        Files.writeString(file, CanonicalJson.encode(roster));
        return file;
    }

    /**
     * A repository for the members to serve, whatever directory the demo runs in: just enough git
     * metadata (HEAD on a branch, the branch's commit id) for each server to record one revision.
     */
    private static Path scratchRepository(Path root) throws IOException {
        Path git = Files.createDirectories(root.resolve(".git/refs/heads"));
        Files.writeString(root.resolve(".git/HEAD"), "ref: refs/heads/main\n");
        Files.writeString(git.resolve("main"), "5eed0fd1ee7c0de0000000000000000000000001\n");
        return root;
    }

    static String abbreviate(String digest) {
        return digest.length() > 19 ? digest.substring(0, 19) + "..." : digest;
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

    /** Numbered steps and checked expectations, printed as they happen. */
    private static final class Story {
        private final PrintWriter out;
        private int failed;
        private String step = "";

        Story(PrintWriter out) {
            this.out = out;
        }

        void step(String title) {
            step = title.substring(0, title.indexOf('.') + 1);
            out.printf("%n%s%n", title);
            out.flush();
        }

        /** Where the story is, as a prefix for a failure: "step 4: ". */
        String where() {
            return step.isEmpty() ? "" : "step " + step.substring(0, step.length() - 1) + ": ";
        }

        void expect(String what, boolean seen) {
            out.printf("   %s %s%n", seen ? "ok  " : "FAIL", what);
            out.flush();
            if (!seen) {
                failed++;
            }
        }

        boolean end() {
            out.printf("%n%s%n", failed == 0 ? "demo: every expected verdict was seen"
                    : "demo: " + failed + " expectation(s) not met");
            return failed == 0;
        }
    }

    static String name(RosterMember member) {
        return member.namespace() + "/" + member.profile();
    }
}
