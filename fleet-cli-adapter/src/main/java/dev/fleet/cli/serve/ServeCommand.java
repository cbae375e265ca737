package dev.fleet.cli.serve;

import dev.fleet.cli.exit.ConfigurationException;
import dev.fleet.cli.exit.ExitCodes;
import dev.fleet.cli.metrics.MetricsAnswer;
import dev.fleet.cli.option.Candidates;
import dev.fleet.cli.option.PathConverter;
import dev.fleet.cli.option.RegistryOption;
import dev.fleet.cli.option.RosterOption;
import dev.fleet.cli.serve.DaemonHeartbeatScheduler;
import dev.fleet.cli.serve.ParentLooks;
import dev.fleet.cli.serve.Slf4jLifecycleLog;
import dev.fleet.cli.serve.WrappedCommand;
import dev.fleet.cli.text.Terminal;
import dev.fleet.domain.Lease;
import dev.fleet.cli.text.BeyondLoopback;
import dev.fleet.domain.Printable;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.Transport;
import dev.fleet.domain.assessment.AssessFleetInventoryService;
import dev.fleet.domain.assessment.SharedAssessments;
import dev.fleet.domain.lifecycle.Cohort;
import dev.fleet.domain.lifecycle.ParentAtStart;
import dev.fleet.domain.lifecycle.ServerIdentity;
import dev.fleet.domain.port.in.AssessFleetInventoryUseCase;
import dev.fleet.domain.port.out.ProcessObserver;
import dev.fleet.domain.port.out.RegistryWriter;
import dev.fleet.domain.registration.ServerLifecycleService;
import dev.fleet.mcp.FleetMcpServer;
import dev.fleet.mcp.http.StreamableHttpEndpoint;
import dev.fleet.mcp.relay.RelayServer;
import dev.fleet.mcp.relay.ServedChild;
import dev.fleet.mcp.stdio.ClientWatch;
import dev.fleet.mcp.stdio.ExitAction;
import dev.fleet.mcp.stdio.StdioServer;
import dev.fleet.metrics.MetricsScrape;
import dev.fleet.observer.OwnParent;
import dev.fleet.observer.ProcessObservers;
import dev.fleet.registry.postgresql.PostgresRegistryWriter;
import dev.fleet.registry.sqlite.SqliteRegistryWriter;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code fleet serve}: one fleet member's MCP server. Wires the read side for its assessments and
 * the write side for its own registration, which only this server's lifecycle ever touches.
 */
@Command(name = ServeCommand.NAME,
        description = "Serve the fleet tools over MCP as one roster member, registering this process.")
public final class ServeCommand implements Callable<Integer> {

    /** The verb's name, declared here once: {@code FleetCli} registers the verb by it. */
    public static final String NAME = "serve";

    @Spec
    private CommandSpec spec;

    enum TransportOption { STDIO, HTTP }

    @Option(names = "--profile", required = true, paramLabel = "NAME", completionCandidates = Candidates.Profiles.class,
            description = "The roster profile this server serves; namespace and role come from the roster.")
    private String profile;

    @Mixin
    private RegistryOption registry;

    @Mixin
    private RosterOption roster;

    @Option(names = "--transport", defaultValue = "stdio", paramLabel = "stdio|http",
            completionCandidates = Transports.class,
            description = "stdio (default; for an MCP client that spawns this process: it stops when the client "
                    + "closes stdin) or http (streamable HTTP: stdin is ignored, and it serves until SIGTERM or SIGINT).")
    private TransportOption transport;

    @Option(names = "--host", defaultValue = StreamableHttpEndpoint.DEFAULT_HOST, paramLabel = "ADDRESS",
            description = "HTTP bind address (default: ${DEFAULT-VALUE}).")
    private String host;

    @Option(names = "--port", defaultValue = "8765", paramLabel = "N",
            description = "HTTP port (default: ${DEFAULT-VALUE}; 0 picks a free one).")
    private int port;

    @Option(names = "--repository-root", defaultValue = ".", paramLabel = "DIR", converter = PathConverter.class,
            description = "The checkout this server works in; its git HEAD is the startup head (default: .).")
    private Path repositoryRoot;

    @Option(names = "--heartbeat-seconds", defaultValue = "30", paramLabel = "N",
            description = "Seconds between heartbeats (default: ${DEFAULT-VALUE}).")
    private int heartbeatSeconds;

    @Option(names = "--cohort-from-parent",
            description = "Without GITEA_MCP_COHORT_ID, take the cohort from the client's pid (ppid:<pid>); unknown when the "
                    + "parent is pid 1 or not the process that started this server.")
    private boolean cohortFromParent;

    @Option(names = "--keep-without-client",
            description = "Over stdio, keep serving when the client that started this server is gone (by default "
                    + "it stops, as on stdin EOF, within 2 s of being reparented).")
    private boolean keepWithoutClient;

    @Parameters(paramLabel = "COMMAND", arity = "0..*",
            description = "After --: your own MCP server, started as this member's child (no shell) and relayed "
                    + "to over stdio, so that it becomes a fleet member unchanged.")
    private List<String> command = new ArrayList<>();

    /** This process's parent pid, read afresh: recorded at start, then watched over stdio. */
    private final OwnParent ownParent = new OwnParent();

    /** What this server could tell of the process that started it; decided once, in {@link OwnIdentity#read}. */
    private ParentAtStart atStart = new ParentAtStart.Unknown();

    @Override
    public Integer call() throws InterruptedException {
        // First of all: the later the parent is first looked at, the longer a client has had to die unseen.
        ParentLooks parents = new ParentLooks(ownParent);
        Roster fleet = roster.roster();
        RosterMember member = fleet.memberByProfile(profile).orElseThrow(() -> new ConfigurationException(
                "unknown profile '" + profile + "': the roster has " + fleet.members().stream()
                        .map(RosterMember::profile).collect(Collectors.joining(", "))));
        ServeSettings settings = new ServeSettings(transport == TransportOption.STDIO ? Transport.STDIO
                : Transport.STREAMABLE_HTTP, host, port, Duration.ofSeconds(heartbeatSeconds), repositoryRoot);
        WrappedCommand wrapped = WrappedCommand.of(command, settings.transport(), spec.commandLine());
        RegistryWriter writer = registry.postgres().<RegistryWriter>map(PostgresRegistryWriter::new)
                .orElseGet(this::sqliteWriter);
        ProcessObserver observer = ProcessObservers.forThisPlatform();
        OwnIdentity own = OwnIdentity.read(member, fleet, settings, observer, parents, cohortFromParent,
                spec.commandLine().getErr());
        atStart = own.atStart();
        ServerIdentity identity = own.identity();
        warnIfCohortLostWithClient(identity.cohort(), settings.transport() == Transport.STDIO && !keepWithoutClient);
        // The row is written right after the child has started and both pipes are open; a command that
        // cannot start is one line and exit 2, with nothing registered.
        ServedChild child = wrapped == null ? null : wrapped.start(member);
        identity = child == null ? identity : WrappedCommand.recorded(identity, child, observer);

        ServerLifecycleService lifecycle = new ServerLifecycleService(identity, writer, Instant::now, System::nanoTime,
                new DaemonHeartbeatScheduler(), new Slf4jLifecycleLog(), () -> OwnIdentity.ownStart(observer));
        // Calls, subscriptions and scrapes that assess at once share one assessment begun after they asked.
        AssessFleetInventoryUseCase assessment = new SharedAssessments(new AssessFleetInventoryService(fleet,
                registry.evidence(), observer, Instant::now, identity.answeredBy(), identity.hostId(), Lease.DEFAULT));
        FleetMcpServer server = new FleetMcpServer(assessment, lifecycle, lifecycle, settings.heartbeat());
        if (settings.transport() == Transport.STDIO) {
            if (Terminal.stdinIsTerminal()) {
                // Started by hand it would wait in silence for JSON-RPC: say what it is for.
                spec.commandLine().getErr().println("fleet: serve speaks MCP (JSON-RPC) over stdin/stdout, for an "
                        + "MCP client to start; `fleet mcp-config` prints a client configuration. Ctrl-D ends it.");
                spec.commandLine().getErr().flush();
            }
            ClientWatch watch = parents.watch(atStart, keepWithoutClient);
            if (child != null) {
                RelayServer.serve(server, child, watch);
            }
            StdioServer.serve(server, ExitAction.systemExit(), watch);
        } else {
            // GET /metrics beside the MCP endpoint: the same read-only assessment, as an exposition.
            serveHttp(server, new MetricsScrape(assessment, fleet, MetricsAnswer.buildInfo(), MetricsAnswer.host(fleet)), settings,
                    registry.location());
        }
        return ExitCodes.OK;
    }

    private void serveHttp(FleetMcpServer server, MetricsScrape metrics, ServeSettings settings, String registryPath)
            throws InterruptedException {
        try {
            StreamableHttpEndpoint.serve(server, metrics, settings.host(), settings.port(), running -> {
                PrintWriter err = spec.commandLine().getErr();
                if (running.exposedBeyondLoopback()) {
                    err.println(BeyondLoopback.warning(settings.host(), "this server"));
                }
                err.printf("fleet: %s serving MCP on %s (registry %s)%n", Printable.of(profile), running.endpoint(),
                        Printable.of(registryPath));
                err.flush();
            });
        } catch (IllegalStateException cannotBind) {
            // An address in use or not ours to bind is the operator's to fix, like any bad option.
            throw new ConfigurationException(cannotBind.getMessage());
        }
    }

    /**
     * A server that goes on serving although its client was gone before it could be recorded (kept, or
     * over HTTP) says why its cohort, which was to come from that client, is unknown.
     */
    private void warnIfCohortLostWithClient(Cohort cohort, boolean stopsAtOnce) {
        if (atStart instanceof ParentAtStart.Gone gone && !stopsAtOnce && cohortFromParent
                && cohort instanceof Cohort.Unknown) {
            spec.commandLine().getErr().println("fleet: warning: " + gone.reason() + "; no parent is recorded, so "
                    + "--cohort-from-parent leaves this server's cohort unknown (set " + Cohort.ENV_VARIABLE
                    + " to name it)");
            spec.commandLine().getErr().flush();
        }
    }

    /**
     * The SQLite file's writer, checked before this server serves: a server that cannot register would
     * look like a stray to every assessment. A registry that is only busy, locked or lacking columns
     * for now is retried at each heartbeat instead, while the server serves.
     */
    private SqliteRegistryWriter sqliteWriter() {
        SqliteRegistryWriter writer = new SqliteRegistryWriter(registry.path(),
                SqliteRegistryWriter.Directories.forPath(!registry.mayMakeFolder()));
        writer.checkLocation();
        // The registry side (driver, native library, jOOQ) gets ready on another core while the MCP
        // server is built here: the registration right after binding then starts at once.
        Thread prepare = new Thread(writer::prepare, "fleet-registry-prepare");
        prepare.setDaemon(true);
        prepare.start();
        return writer;
    }

    static final class Transports extends Candidates.Named<TransportOption> {
        Transports() {
            super(TransportOption.class);
        }
    }
}
