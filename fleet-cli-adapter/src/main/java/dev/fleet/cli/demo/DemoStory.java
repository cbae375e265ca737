package dev.fleet.cli.demo;

import dev.fleet.cli.text.Table;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Roster;
import dev.fleet.domain.port.out.RegistryListing;
import dev.fleet.registry.postgresql.PostgresLocation;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The contract's story, told with a {@link DemoFleet}: numbered steps and checked expectations,
 * printed as they happen. Whether every expectation was met is the demo's answer.
 */
public final class DemoStory {

    /** A stopped row's status as the registry holds it. */
    private static final String STOPPED = RegistrationStatus.STOPPED.code();

    /** A PostgreSQL database the demo may use for its last step, "many hosts" (docs/CONTRACT.md). */
    public static final String SHARED_REGISTRY_ENV = "FLEET_DEMO_POSTGRES";

    /** The cohorts of the story's two MCP clients: the first launches the five members, the second one more. */
    private static final String FIRST_COHORT = "demo-client-1";
    private static final String SECOND_COHORT = "demo-client-2";

    private final DemoFleet fleet;
    private final PrintWriter out;
    private final DemoWatch watch;
    private int failed;
    private String step = "";

    public DemoStory(DemoFleet fleet, PrintWriter out, DemoWatch watch) {
        this.fleet = fleet;
        this.out = out;
        this.watch = watch;
    }

    /**
     * Tells the whole story.
     *
     * @return whether every expected verdict was seen
     * @throws Exception when the story cannot go on (a server that does not answer, an interrupt)
     */
    public boolean tell() throws Exception {
        Roster roster = Roster.defaultRoster();
        String registry = fleet.registry();

        step("1. One MCP client (cohort " + FIRST_COHORT + ") launches the five default members over stdio, each "
                + "through a launcher process");
        out.println("   registry: " + registry);
        // The demo opens nothing by itself; this is the one command that shows its fleet live in a browser.
        watch.printHint(out, registry, fleet.roster());
        watch.hold(out); // time to open the page before the first member starts
        fleet.launch(roster.members(), FIRST_COHORT, true);
        expect("five rows registered by the servers themselves", awaitRunning(fleet, 5));

        step("2. The controller assesses the fleet");
        DemoVerdict first = fleet.assess("prgs-controller");
        first.print(out);
        expect("gate satisfied with 5 running", first.gateSatisfied() && first.runningMembers() == 5);
        DemoSubscription subscription = fleet.subscribe("prgs-controller");
        int notified = subscription.received();
        out.println("   the controller's client subscribes to fleet://verdict");

        step("3. A second client (cohort " + SECOND_COHORT + ") launches another author");
        fleet.launch(List.of(roster.memberByProfile("prgs-author").orElseThrow()), SECOND_COHORT, false);
        expect("six rows registered", awaitRunning(fleet, 6));
        expect("the subscribed client was notified that the verdict changed (notifications/resources/updated)",
                subscription.awaitMoreThan(notified, DemoFleet.PATIENCE));

        step("4. The reconciler assesses the fleet");
        DemoVerdict second = fleet.assess("prgs-reconciler");
        second.print(out);
        expect("duplicate_member and cohort_split", second.codes().equals(List.of("duplicate_member", "cohort_split")));
        expect("6 running against 5 expected", second.runningMembers() == 6);
        DemoVerdict fromController = fleet.assess("prgs-controller");
        expect("the controller's digest equals the reconciler's (" + DemoVerdict.abbreviate(second.digest()) + ")",
                fromController.digest().equals(second.digest()));

        orphans();

        step("7. The second client leaves: it closes its server's stdin");
        fleet.close();
        List<RegistryRow> rows = fleet.reader().readAll().rows();
        Table table = new Table("   PROFILE", "PID", "COHORT", "STATUS", "STOPPED_AT");
        rows.forEach(row -> table.row("   " + row.profile(), row.pid(), row.cohortId(), row.status(), row.stoppedAt()));
        out.print(table.render());
        expect("every server marked its row stopped, and every process exited 0", rows.size() == 6
                && rows.stream().allMatch(row -> STOPPED.equals(row.status())) && fleet.allExitedCleanly());

        String shared = System.getenv(SHARED_REGISTRY_ENV);
        if (PostgresLocation.isUrl(shared)) {
            manyHosts(roster, shared);
        }
        return end();
    }

    /**
     * Steps 5 and 6: the first client dies while the demo still holds its servers' stdin, so no EOF
     * comes. The second client's author (which the latest launch made the answerer for its profile)
     * assesses at once and again until each of the first client's servers has been named orphaned or
     * has left by itself ({@link OrphanTally}).
     */
    private void orphans() throws Exception {
        step("5. The first client dies: its launchers exit, while a helper (this demo) still holds its servers' stdin");
        expect("no orphan while the client lives", fleet.assess("prgs-author").orphanPids().isEmpty());
        List<Long> servers = fleet.launchedServerPids();
        fleet.exitFirstClient();
        OrphanTally tally = awaitOrphans(servers);
        if (tally.shown() != null) {
            tally.shown().print(out);
        }
        expect(tally.describe(), tally.complete());

        step("6. The orphans notice that their client is gone and leave by themselves");
        expect("the first client's five rows marked stopped by their servers; the second author serves on",
                awaitStatuses(fleet, 5, 1));
    }

    /** The second author's verdicts, one after another, until each of {@code servers} was named orphaned or has left. */
    private OrphanTally awaitOrphans(List<Long> servers) throws InterruptedException {
        long deadline = System.nanoTime() + DemoFleet.PATIENCE.toNanos();
        OrphanTally tally = OrphanTally.of(servers);
        do {
            DemoVerdict verdict = fleet.assess("prgs-author");
            // Read after the verdict: a row stopped by then whose server that verdict did not name has left unnamed.
            tally = tally.with(verdict, stoppedPids(fleet.reader().readAll()));
            if (tally.complete()) {
                return tally;
            }
            Thread.sleep(5);
        } while (System.nanoTime() < deadline);
        return tally;
    }

    private static Set<Long> stoppedPids(RegistryRead read) {
        return read.rows().stream().filter(row -> STOPPED.equals(row.status()) && row.pid() != null)
                .map(RegistryRow::pid).collect(Collectors.toSet());
    }

    /**
     * Step 8, when {@code FLEET_DEMO_POSTGRES} names a PostgreSQL database the demo may use: two
     * "hosts" (two host ids, each with a roster that sees only its own servers) on one shared
     * registry. Host A runs the five; host B starts a reconciler; both hosts' verdicts name it
     * {@code remote_member}; host B stops it, and host A's gate opens again. A database that already holds a
     * live row of the default binding cannot tell that: the step fails at once, naming each such row.
     */
    private void manyHosts(Roster roster, String url) throws Exception {
        step("8. Many hosts, one registry (" + PostgresLocation.parse(url).display() + "): host A runs the "
                + "five, host B starts a reconciler");
        DemoFleet hostA = fleet.onAnotherHost(url, "demo-host-a");
        DemoFleet hostB = fleet.onAnotherHost(url, "demo-host-b");
        RegistryRead shared = hostA.reader().readAll();
        // The step needs a database without a live member of the default binding: one would close both hosts'
        // gates to the end. Say which row, so the operator can stop its server or wait out its lease.
        String inTheWay = RowsInTheWay.problem(shared, roster.binding(), Instant.now());
        expect("the shared registry holds no live row of the default binding"
                + (inTheWay == null ? "" : " (" + inTheWay + ")"), inTheWay == null);
        if (inTheWay != null) {
            return;
        }
        long before = running(shared);
        hostA.launch(roster.members(), "demo-host-a", false);
        hostB.launch(List.of(roster.memberByProfile("prgs-reconciler").orElseThrow()), "demo-host-b", false);
        expect("six more running rows in the shared registry", awaitRunning(hostA, (int) before + 6));
        DemoVerdict onA = hostA.assess("prgs-controller");
        onA.print(out);
        expect("host A: remote_member", onA.codes().equals(List.of("remote_member")));
        DemoVerdict onB = hostB.assess("prgs-reconciler");
        expect("host B: remote_member too", onB.codes().contains("remote_member"));
        hostB.close();
        expect("host B's row stopped", awaitRunning(hostA, (int) before + 5));
        expect("host A's controller and reconciler: gate satisfied again", hostA.assess("prgs-controller")
                .gateSatisfied() && hostA.assess("prgs-reconciler").gateSatisfied());
        hostA.close();
    }

    /** How many expectations were not met so far. */
    public int failed() {
        return failed;
    }

    /** Where the story is, as a prefix for a failure: "step 4: ". */
    public String where() {
        return step.isEmpty() ? "" : "step " + step.substring(0, step.length() - 1) + ": ";
    }

    /** A step's title; the step before it is held first ({@code --pause}), so the page can show how it ended. */
    private void step(String title) throws InterruptedException {
        if (!step.isEmpty()) {
            watch.hold(out);
        }
        step = title.substring(0, title.indexOf('.') + 1);
        out.printf("%n%s%n", title);
        out.flush();
    }

    private void expect(String what, boolean seen) {
        out.printf("   %s %s%n", seen ? "ok  " : "FAIL", what);
        out.flush();
        if (!seen) {
            failed++;
        }
    }

    /** The demo's members are fleet's own servers; a reader's next step is making theirs members. */
    static final String WRAP_YOUR_OWN = "your own MCP servers become members unchanged: fleet serve --profile NAME "
            + "-- COMMAND [ARG...] (fleet mcp-config --server-command 'COMMAND ARG...' writes the client entries)";

    private boolean end() throws InterruptedException {
        watch.hold(out);
        out.printf("%n%s%n", WRAP_YOUR_OWN);
        out.printf("%n%s%n", failed == 0 ? "demo: every expected verdict was seen"
                : "demo: " + failed + " expectation(s) not met");
        return failed == 0;
    }

    /** Polls the registry (read-only) until it shows {@code count} running rows, for up to {@link DemoFleet#PATIENCE}. */
    private static boolean awaitRunning(DemoFleet fleet, int count) throws InterruptedException {
        return awaitRows(fleet, read -> running(read) == count);
    }

    /** Polls the registry (read-only) until it shows {@code stopped} stopped and {@code running} running rows. */
    private static boolean awaitStatuses(DemoFleet fleet, int stopped, int running) throws InterruptedException {
        return awaitRows(fleet, read -> running(read) == running
                && read.rows().stream().filter(row -> STOPPED.equals(row.status())).count() == stopped);
    }

    private static boolean awaitRows(DemoFleet fleet, Predicate<RegistryRead> shows) throws InterruptedException {
        RegistryListing reader = fleet.reader();
        Predicate<RegistryRead> done = read -> read.readable() && shows.test(read);
        long deadline = System.nanoTime() + DemoFleet.PATIENCE.toNanos();
        do {
            if (done.test(reader.readAll())) {
                return true;
            }
            Thread.sleep(50);
        } while (System.nanoTime() < deadline);
        return done.test(reader.readAll());
    }

    private static long running(RegistryRead read) {
        return read.rows().stream().filter(row -> "running".equals(row.status())).count();
    }
}
