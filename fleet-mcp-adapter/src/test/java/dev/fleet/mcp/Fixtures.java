package dev.fleet.mcp;

import dev.fleet.domain.ClientProvenance;
import dev.fleet.domain.Transport;
import dev.fleet.domain.lifecycle.Cohort;
import dev.fleet.domain.lifecycle.FixedClock;
import dev.fleet.domain.lifecycle.ServerIdentity;
import dev.fleet.domain.port.out.HeartbeatScheduler;
import dev.fleet.domain.port.out.RegistryWriter;
import dev.fleet.domain.registration.ServerLifecycleService;
import dev.fleet.domain.AnsweredBy;
import dev.fleet.domain.Binding;
import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.ProcessObservation;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryReason;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.Snapshot;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Timestamps;
import dev.fleet.domain.port.in.AssessFleetInventoryUseCase;
import dev.fleet.domain.verdict.FleetClassifier;
import dev.fleet.mcp.http.RunningHttpServer;
import dev.fleet.mcp.http.StreamableHttpEndpoint;
import dev.fleet.testing.Patience;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;


/** Snapshots and identities for tests: a fixed assessment is the classifier over one of these snapshots. */
public final class Fixtures {

    static final Instant STARTED = Instant.parse("2026-07-28T01:59:59.500Z");
    static final Instant REGISTERED = RowBuilder.REGISTERED;
    static final Instant OBSERVED_AT = Instant.parse("2026-07-28T02:05:00.000Z");
    static final String BOOT = RowBuilder.BOOT;
    static final String PID_NAMESPACE = RowBuilder.PID_NAMESPACE;
    static final String HEAD = RowBuilder.HEAD;
    static final String COHORT = "cohort-a";
    static final String REGISTRY_PATH = "/state/gitea-tools/control_plane.sqlite3";
    static final RosterMember CONTROLLER = new RosterMember("gitea-controller", "prgs-controller", "controller");

    private Fixtures() {
    }

    /** The five default members, healthy, all in one cohort at one revision: the gate is satisfied. */
    static Snapshot satisfied(AnsweredBy answeredBy) {
        List<RegistryRow> rows = new ArrayList<>();
        List<ObservedProcess> processes = new ArrayList<>();
        long pid = 41_000;
        for (RosterMember member : Roster.defaultRoster().members()) {
            rows.add(row(member, ++pid, COHORT, Binding.DEFAULT, "running"));
            processes.add(server(pid, member));
        }
        return snapshot(RegistryRead.of(rows), ProcessObservation.of(BOOT, "fleet-host", PID_NAMESPACE, processes), answeredBy);
    }

    /** The contract's failure: a second author from another client → duplicate_member and cohort_split. */
    public static Snapshot duplicateAuthor(AnsweredBy answeredBy) {
        Snapshot base = satisfied(answeredBy);
        List<RegistryRow> rows = new ArrayList<>(base.registry().rows());
        List<ObservedProcess> processes = new ArrayList<>(base.observation().processes());
        RosterMember author = Roster.defaultRoster().members().get(0);
        rows.add(row(author, 52_001, "cohort-b", Binding.DEFAULT, "running"));
        processes.add(server(52_001, author));
        return snapshot(RegistryRead.of(rows), ProcessObservation.of(BOOT, "fleet-host", PID_NAMESPACE, processes), answeredBy);
    }

    /** Every anomaly list populated at once, so schemas are checked against every shape the verdict has. */
    static Snapshot everyAnomaly(AnsweredBy answeredBy) {
        Snapshot base = duplicateAuthor(answeredBy);
        List<RegistryRow> rows = new ArrayList<>(base.registry().rows());
        List<ObservedProcess> processes = new ArrayList<>(base.observation().processes());
        RosterMember stranger = new RosterMember("gitea-stranger", "prgs-stranger", "stranger");
        rows.add(row(stranger, 60_001, COHORT, Binding.DEFAULT, "running"));
        processes.add(server(60_001, stranger));
        rows.add(row(CONTROLLER, 60_002, COHORT, new Binding("other", "Org", "Repo"), "running"));
        processes.add(server(60_002, CONTROLLER));
        rows.add(row(CONTROLLER, 60_003, COHORT, Binding.DEFAULT, "running")); // exited: stale
        rows.add(row(CONTROLLER, 60_004, null, Binding.DEFAULT, "stopped"));
        processes.add(server(60_004, CONTROLLER)); // stopped row, live server: unregistered
        rows.add(row(CONTROLLER, 60_005, COHORT, Binding.DEFAULT, "running"));
        processes.add(new ObservedProcess(60_005, null, null, "fleet", false)); // start unknown: unverified
        processes.add(new ObservedProcess(60_006, STARTED, "java -jar /opt/fleet.jar serve --profile x", "fleet", true));
        // Started by a client (pid 59_999) that the observation no longer shows: orphaned.
        rows.add(RowBuilder.from(row(CONTROLLER, 60_008, COHORT, Binding.DEFAULT, "running")).parent(59_999, STARTED)
                .build());
        processes.add(server(60_008, CONTROLLER));
        // Wrapping a server that runs (served, a worker below it) and one whose server has exited (stale).
        rows.add(RowBuilder.from(row(CONTROLLER, 60_009, COHORT, Binding.DEFAULT, "running"))
                .wraps("java -jar /opt/inner/fleet.jar serve --profile x --token ***", 60_010, STARTED).build());
        processes.add(server(60_009, CONTROLLER));
        processes.add(new ObservedProcess(60_010, STARTED, "java -jar /opt/inner/fleet.jar serve --profile x", "fleet",
                true, 60_009L));
        rows.add(RowBuilder.from(row(CONTROLLER, 60_011, COHORT, Binding.DEFAULT, "running"))
                .wraps("python3 server.py", 60_012, STARTED).build());
        processes.add(server(60_011, CONTROLLER));
        RegistryRow malformed = row(CONTROLLER, 60_007, COHORT, Binding.DEFAULT, "exploded");
        rows.add(malformed);
        return snapshot(RegistryRead.of(rows), ProcessObservation.of(null, null, null, processes), answeredBy);
    }

    /** The registry file is missing: a blocked verdict, never an exception. */
    static Snapshot unreadable(AnsweredBy answeredBy) {
        return snapshot(RegistryRead.unreadable(RegistryReason.MISSING),
                ProcessObservation.of(BOOT, "fleet-host", PID_NAMESPACE, List.of()), answeredBy);
    }

    static AssessFleetInventoryUseCase assessment(Snapshot snapshot) {
        return () -> FleetClassifier.classify(snapshot);
    }

    static ServerIdentity identity(long pid) {
        return new ServerIdentity(CONTROLLER.profile(), CONTROLLER.namespace(), CONTROLLER.role(), Binding.DEFAULT,
                "/checkout/Gitea-Tools", pid, STARTED, BOOT, PID_NAMESPACE, new Cohort.FromEnv(COHORT), HEAD,
                Transport.STDIO, ClientProvenance.CLIENT_MANAGED);
    }

    /** This process as an HTTP server of the controller. */
    public static ServerIdentity httpIdentity() {
        ServerIdentity stdio = identity(ProcessHandle.current().pid());
        return new ServerIdentity(stdio.profile(), stdio.namespace(), stdio.role(), stdio.binding(),
                stdio.repositoryRoot(), stdio.pid(), stdio.processStartedAt(), stdio.bootId(), stdio.pidNamespace(),
                stdio.cohort(), stdio.startupHead(), Transport.STREAMABLE_HTTP, stdio.clientProvenance());
    }

    /** An HTTP server whose tool sees a duplicated author, registering into {@code registry}. */
    public static FleetMcpServer httpServer(RegistryWriter registry) {
        ServerIdentity identity = httpIdentity();
        ServerLifecycleService lifecycle = lifecycle(identity, registry, new FixedClock(REGISTERED));
        return new FleetMcpServer(assessment(duplicateAuthor(identity.answeredBy())), lifecycle, lifecycle,
                Duration.ofHours(1));
    }

    /** A stdio member of the controller (this process), whose tool sees the five members healthy; it registers nowhere. */
    public static FleetMcpServer stdioMember() {
        return stdioMember(() -> false);
    }

    /**
     * A stdio member of the controller (this process) that registers nowhere, whose tool sees the five members
     * healthy until {@code duplicated} says a sixth came (a duplicated author).
     */
    public static FleetMcpServer stdioMember(java.util.function.BooleanSupplier duplicated) {
        ServerIdentity identity = identity(ProcessHandle.current().pid());
        ServerLifecycleService lifecycle = lifecycle(identity, new dev.fleet.domain.lifecycle.InMemoryRegistry(),
                new FixedClock(REGISTERED));
        Snapshot healthy = satisfied(identity.answeredBy());
        Snapshot sixth = duplicateAuthor(identity.answeredBy());
        return new FleetMcpServer(() -> FleetClassifier.classify(duplicated.getAsBoolean() ? sixth : healthy),
                lifecycle, lifecycle, Duration.ofHours(1));
    }

    /**
     * The lifecycle a server built by the CLI would have: a real timer and a log on stderr (the CLI's
     * own scheduler and log live in the composition root, which this module cannot see), the given registry.
     */
    static ServerLifecycleService lifecycle(ServerIdentity identity, RegistryWriter registry, InstantSource clock) {
        return lifecycle(identity, registry, clock, new TimerHeartbeats());
    }

    /** {@link #lifecycle(ServerIdentity, RegistryWriter, InstantSource)} with heartbeats run by {@code scheduler}. */
    static ServerLifecycleService lifecycle(ServerIdentity identity, RegistryWriter registry, InstantSource clock,
            HeartbeatScheduler scheduler) {
        return new ServerLifecycleService(identity, registry, clock, System::nanoTime, scheduler,
                new StderrLifecycleLog(), () -> null);
    }

    /**
     * An SDK client of a running streamable HTTP server, with the tests' patience, not yet
     * initialized; {@code more} adds to its specification (capabilities, consumers).
     */
    public static McpSyncClient httpClient(RunningHttpServer running, UnaryOperator<McpClient.SyncSpec> more) {
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
                .builder("http://127.0.0.1:" + running.port())
                .endpoint(StreamableHttpEndpoint.ENDPOINT)
                .jsonMapper(mapper())
                .build();
        return more.apply(McpClient.sync(transport)
                .requestTimeout(Patience.mcpTimeout())
                .initializationTimeout(Patience.mcpTimeout()))
                .build();
    }

    /** The mapper a client of these tests reads answers with: the server's own. */
    public static McpJsonMapper mapper() {
        return McpJson.mapper();
    }

    private static Snapshot snapshot(RegistryRead read, ProcessObservation observation, AnsweredBy answeredBy) {
        return new Snapshot(Roster.defaultRoster(), read, observation, OBSERVED_AT, REGISTRY_PATH, answeredBy);
    }

    /** A row of the domain's builder, started at {@link #STARTED} and registered at {@link #REGISTERED}. */
    private static RegistryRow row(RosterMember member, long pid, String cohort, Binding binding, String status) {
        return RowBuilder.row(member, pid).with(r -> {
            r.remote = binding.remote();
            r.org = binding.org();
            r.repo = binding.repo();
            r.cohortId = cohort;
            r.cohortSource = cohort == null ? "unknown" : "env";
            r.processStartedAt = Timestamps.format(STARTED);
            r.status = status;
            r.stoppedAt = "stopped".equals(status) ? Timestamps.format(REGISTERED) : null;
        }).build();
    }

    private static ObservedProcess server(long pid, RosterMember member) {
        return new ObservedProcess(pid, STARTED, "java -jar /opt/fleet.jar serve --profile " + member.profile(),
                "fleet", true);
    }
}
