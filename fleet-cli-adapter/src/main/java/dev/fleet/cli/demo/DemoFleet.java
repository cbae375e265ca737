package dev.fleet.cli.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.cli.serve.ServeCommand;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.lifecycle.Cohort;
import dev.fleet.domain.port.out.RegistryListing;
import dev.fleet.mcp.AssessFleetInventoryTool;
import dev.fleet.observer.HostIdentity;
import dev.fleet.registry.postgresql.PostgresLocation;
import dev.fleet.registry.postgresql.PostgresRegistryReader;
import dev.fleet.registry.sqlite.SqliteRegistryReader;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The demo's servers: real {@code fleet serve} processes started from this jar, each held by the
 * SDK's MCP client over the server's own stdin and stdout, which is how an LLM client runs them.
 *
 * <p>Every wait is generous, because a busy two-core host may take tens of seconds to start six
 * JVMs, and bounded: a server that does not answer in time ends the demo with a {@link DemoFailure}
 * that says which server and which wait, never with the SDK's own exception.
 *
 * <p>How to start {@code fleet.jar} is the composition root's to say (this very java and jar, an
 * environment cleared of what would point a server elsewhere): this package starts what it is given.
 */
public final class DemoFleet implements AutoCloseable {

    /**
     * How long the demo waits for a server's handshake, a tool call or the registry: long enough for
     * a loaded two-core host. {@code -Dfleet.demo.timeoutMillis} (through FLEET_JAVA_OPTS) changes it.
     */
    static final Duration PATIENCE = Duration.ofMillis(Math.max(1, Long.getLong("fleet.demo.timeoutMillis",
            120_000)));
    /** How long clean-up waits for the servers to exit once their stdin is closed (they take about 2 s). */
    static final Duration EXIT_WAIT = Duration.ofSeconds(60);

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JacksonMcpJsonMapper MCP_JSON = new JacksonMcpJsonMapper(JSON);

    /** A file, or a shared registry's URL (a host of {@link #onAnotherHost}). */
    private final String registry;
    private final Path roster;
    /** This fleet's host id for its servers ({@code FLEET_HOST_ID}); null: this host's own. */
    private final String hostId;
    /** Fleets of other "hosts" on a shared registry, closed with this one. */
    private final List<DemoFleet> companions = new ArrayList<>();
    private final Path repository;
    private final Function<List<String>, ProcessBuilder> fleetJar;
    private final ClientLaunchers launchers;
    private final PrintWriter out;
    private final Map<String, McpSyncClient> byProfile = new LinkedHashMap<>();
    private final List<McpSyncClient> clients = new ArrayList<>();
    private final List<ChildProcessTransport> transports = new ArrayList<>();
    private final DemoProcesses processes = new DemoProcesses();
    private final DemoSubscription subscription = new DemoSubscription();
    private boolean closed;

    private DemoFleet(String registry, String hostId, Path roster, Path repository,
            Function<List<String>, ProcessBuilder> fleetJar, ClientLaunchers launchers, PrintWriter out) {
        this.registry = registry;
        this.hostId = hostId;
        this.roster = roster;
        this.repository = repository;
        this.fleetJar = fleetJar;
        this.launchers = launchers;
        this.out = out;
    }

    /**
     * A fleet whose registry, roster and repository are made in {@code dir}; no server runs yet.
     *
     * @param fleetJar a process, not started, running {@code fleet.jar} with the given arguments
     */
    public static DemoFleet in(Path dir, Function<List<String>, ProcessBuilder> fleetJar, PrintWriter out)
            throws IOException {
        Path registry = dir.resolve("control_plane.sqlite3");
        Path roster = dir.resolve("roster.json");
        return new DemoFleet(registry.toString(), null, DemoFiles.roster(roster, "--registry " + Pattern.quote(
                registry.toString())), DemoFiles.scratchRepository(dir.resolve("repository")), fleetJar,
                new ClientLaunchers(dir), out);
    }

    /**
     * A fleet of another "host" (its own {@code FLEET_HOST_ID}) on the shared registry {@code url}, with
     * a roster of its own whose pattern sees only its own servers, as another machine would; closed
     * with this one.
     */
    synchronized DemoFleet onAnotherHost(String url, String otherHostId) throws IOException {
        // This fleet's own servers may be closed already (step 5); its clean-up still closes these.
        Path dir = Files.createDirectories(roster.resolveSibling(otherHostId));
        Path hostRoster = dir.resolve("roster.json");
        DemoFleet host = new DemoFleet(url, otherHostId, DemoFiles.roster(hostRoster, "--roster " + Pattern.quote(
                hostRoster.toString())), DemoFiles.scratchRepository(dir.resolve("repository")), fleetJar,
                new ClientLaunchers(dir), out);
        companions.add(host);
        return host;
    }

    /** The registry the demo's servers register in, as given to them. */
    String registry() { return registry; }

    /** The roster the demo's servers serve, whose pattern sees only them. */
    Path roster() { return roster; }

    /** That registry as an operator lists it: the demo checks its rows. */
    RegistryListing reader() {
        return PostgresLocation.isUrl(registry) ? new PostgresRegistryReader(PostgresLocation.parse(registry))
                : new SqliteRegistryReader(Path.of(registry));
    }

    /**
     * Starts one server per member, all at once, and completes the MCP handshake with each; with
     * {@code throughLaunchers}, each through a launcher process of its own ({@link ClientLaunchers}),
     * which {@link #exitFirstClient()} ends. The latest server launched for a profile answers for it. The
     * handshakes are awaited outside this object's lock, so that clean-up on Ctrl-C never waits for
     * them: it closes the servers' stdin, and they leave.
     */
    void launch(List<RosterMember> members, String cohort, boolean throughLaunchers) {
        List<Process> launched = new ArrayList<>();
        List<ChildProcessTransport> started = new ArrayList<>();
        synchronized (this) {
            if (closed) {
                // Interrupted: a server started now would outlive the clean-up and recreate the registry.
                throw new IllegalStateException("the demo is shutting down");
            }
            for (RosterMember member : members) {
                Process server = start(member, cohort, throughLaunchers);
                processes.started(server);
                launched.add(server);
                ChildProcessTransport transport = new ChildProcessTransport(server, MCP_JSON);
                transports.add(transport);
                started.add(transport);
            }
        }
        List<CompletableFuture<McpSyncClient>> connecting = started.stream()
                .map(transport -> CompletableFuture.supplyAsync(() -> connect(transport)))
                .toList();
        for (int i = 0; i < members.size(); i++) {
            Process server = launched.get(i);
            McpSyncClient client;
            try {
                client = connecting.get(i).join();
            } catch (RuntimeException e) {
                throw DemoFailure.of("the " + members.get(i).role() + " (pid " + server.pid()
                        + ") did not complete the MCP handshake", e, server);
            }
            synchronized (this) {
                if (closed) {
                    throw new IllegalStateException("the demo is shutting down");
                }
                clients.add(client);
                byProfile.put(members.get(i).profile(), client);
            }
            long pid = server.pid();
            if (throughLaunchers) {
                // Through a launcher, the server is the launcher's child; it has answered, so it runs.
                ProcessHandle child = launchedServer(members.get(i), server);
                pid = child.pid();
                synchronized (this) {
                    processes.adopt(child);
                }
            }
            out.printf("   started %s, pid %d (cohort %s%s)%n", name(members.get(i)), pid, cohort,
                    throughLaunchers ? ", launcher pid " + server.pid() : "");
        }
        out.flush();
    }

    private ProcessHandle launchedServer(RosterMember member, Process launcher) {
        try {
            return launchers.server(member.profile(), PATIENCE).orElseThrow(() -> new DemoFailure("the "
                    + member.role() + "'s launcher (pid " + launcher.pid() + ") did not name a running server"));
        } catch (IOException | NumberFormatException e) {
            throw DemoFailure.of("the " + member.role() + "'s launcher (pid " + launcher.pid()
                    + ") wrote no readable pid", e, launcher);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("the demo is shutting down");
        }
    }

    private Process start(RosterMember member, String cohort, boolean throughLauncher) {
        ProcessBuilder builder = fleetJar.apply(List.of(ServeCommand.NAME, "--profile", member.profile(),
                "--registry", registry, "--roster", roster.toString(),
                "--repository-root", repository.toString()));
        builder.environment().put(Cohort.ENV_VARIABLE, cohort);
        if (hostId != null) {
            builder.environment().put(HostIdentity.HOST_ID_ENV, hostId);
        }
        try {
            return (throughLauncher ? launchers.wrap(builder, member.profile()) : builder).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a fleet server", e);
        }
    }

    private McpSyncClient connect(ChildProcessTransport transport) {
        McpSyncClient client = McpClient.sync(transport)
                .requestTimeout(PATIENCE)
                .initializationTimeout(PATIENCE)
                .resourcesUpdateConsumer(subscription::updated)
                .build();
        client.initialize();
        return client;
    }

    /** Subscribes the client of the member with this profile to {@code fleet://verdict}. */
    synchronized DemoSubscription subscribe(String profile) {
        subscription.subscribe(byProfile.get(profile));
        return subscription;
    }

    /** Calls {@code gitea_assess_fleet_inventory} through the member with this profile. */
    DemoVerdict assess(String profile) {
        McpSyncClient client;
        synchronized (this) {
            client = byProfile.get(profile);
        }
        if (client == null) {
            throw new IllegalStateException("the demo is shutting down");
        }
        McpSchema.CallToolResult result;
        try {
            result = client.callTool(McpSchema.CallToolRequest.builder()
                    .name(AssessFleetInventoryTool.NAME).arguments(Map.of()).build());
        } catch (RuntimeException e) {
            throw DemoFailure.of("the " + profile + " server's tool call failed", e, null);
        }
        if (Boolean.TRUE.equals(result.isError()) || result.structuredContent() == null) {
            throw new DemoFailure("the " + profile + " server's tool call returned an error: " + result.content());
        }
        return new DemoVerdict(profile, JSON.valueToTree(result.structuredContent()));
    }

    /** The pids of the servers started through launchers (the first client's), in the order they answered. */
    synchronized List<Long> launchedServerPids() {
        return processes.adoptedPids();
    }

    /** The first client dies: its launchers exit, and the servers they started are orphans. */
    void exitFirstClient() throws IOException {
        launchers.exit();
    }

    /** Whether every process the demo started has exited by itself, with status 0 (see {@link DemoProcesses}). */
    boolean allExitedCleanly() {
        return processes.allExitedCleanly();
    }

    /**
     * Closes every server's stdin at once, as their clients leaving, then waits until each server
     * has marked itself stopped and exited: only then may the registry be removed.
     */
    @Override
    public synchronized void close() {
        closed = true;
        companions.forEach(DemoFleet::close);
        // A launcher still running exits once its server has (EOF below); one whose client is gone left
        // its server orphaned, and that server is waited for by its handle.
        transports.forEach(ChildProcessTransport::closeStdin);
        for (McpSyncClient client : clients) {
            try {
                client.closeGracefully();
            } catch (RuntimeException e) {
                // Closing one client must not keep the others (and their servers) alive; whether each
                // server stopped is checked, and told, by the story itself.
            }
        }
        clients.clear();
        byProfile.clear();
        processes.awaitExit(EXIT_WAIT);
    }

    /** Servers that have not exited yet, as {@code pid N}; empty once every one has. */
    public List<String> stillRunning() {
        return processes.stillRunning();
    }

    private static String name(RosterMember member) {
        return member.namespace() + "/" + member.profile();
    }
}
