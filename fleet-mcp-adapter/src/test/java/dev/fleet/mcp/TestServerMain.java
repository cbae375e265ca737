package dev.fleet.mcp;

import dev.fleet.domain.ClientProvenance;
import dev.fleet.domain.Transport;
import dev.fleet.domain.lifecycle.Cohort;
import dev.fleet.domain.lifecycle.FixedClock;
import dev.fleet.domain.lifecycle.InMemoryRegistry;
import dev.fleet.domain.lifecycle.ServerIdentity;
import dev.fleet.domain.Binding;
import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.ProcessObservation;
import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.Roster;
import dev.fleet.domain.Snapshot;
import dev.fleet.domain.port.in.AssessFleetInventoryUseCase;
import dev.fleet.domain.port.out.RegistryWriter;
import dev.fleet.domain.registration.ServerLifecycleService;
import dev.fleet.domain.verdict.FleetClassifier;
import dev.fleet.mcp.http.StreamableHttpEndpoint;
import dev.fleet.mcp.stdio.ExitAction;
import dev.fleet.mcp.stdio.StdioServer;
import dev.fleet.registry.sqlite.SqliteRegistryWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A stdio fleet server with fakes for the domain ports only, started by tests as a real
 * subprocess. stdout is the protocol, so it reports the fake registry's calls (and its own exit)
 * by appending lines to the file named by its first argument.
 *
 * <p>Usage: {@code TestServerMain <calls-file> [flags]}, flags:
 * <ul>
 *   <li>{@code --fail-registration}: every registration fails;
 *   <li>{@code --registration-delay-millis=N}: every registration takes N ms (a slow first migration);
 *   <li>{@code --self-assessment}: the assessment classifies the fake registry's rows against this
 *       process itself, observed as a fleet server (so a missing row shows as an unregistered process);
 *   <li>{@code --sqlite-registry=PATH}: register in a real SQLite registry file instead of the fake
 *       (calls are then not reported, only each heartbeat's {@value #HEARTBEAT_BEGINS} and
 *       {@value #HEARTBEAT_ENDS}, and the exit);
 *   <li>{@code --heartbeat-millis=N}: heartbeat every N ms (default: one hour);
 *   <li>{@code --http}: serve streamable HTTP on an ephemeral loopback port and report {@code bound <port>}.
 * </ul>
 */
public final class TestServerMain {

    /** What the fake use case prints to System.out, as a library might: it must never reach stdout. */
    static final String NOISE = "noise from a library that prints to System.out";
    /** Reported when a heartbeat enters the real registry, and when it comes back from it. */
    static final String HEARTBEAT_BEGINS = "heartbeat begins";
    static final String HEARTBEAT_ENDS = "heartbeat ends";

    private TestServerMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        Path calls = Path.of(args[0]);
        List<String> flags = Arrays.asList(args).subList(1, args.length);
        InMemoryRegistry fake = new InMemoryRegistry(line -> append(calls, line));
        if (flags.contains("--fail-registration")) {
            fake.failRegistrationsWith(new IllegalStateException("registry is read-only (test)"));
        }
        value(flags, "--registration-delay-millis")
                .ifPresent(millis -> fake.delayRegistrationsBy(Duration.ofMillis(Long.parseLong(millis))));
        RegistryWriter registry = value(flags, "--sqlite-registry")
                .<RegistryWriter>map(path -> new ReportedHeartbeats(new SqliteRegistryWriter(Path.of(path)), calls))
                .orElse(fake);
        Duration heartbeat = value(flags, "--heartbeat-millis").map(millis -> Duration.ofMillis(Long.parseLong(millis)))
                .orElse(Duration.ofHours(1));
        boolean selfAssessment = flags.contains("--self-assessment");

        ProcessHandle self = ProcessHandle.current();
        Instant started = self.info().startInstant().orElse(null);
        ServerIdentity identity = new ServerIdentity(Fixtures.CONTROLLER.profile(), Fixtures.CONTROLLER.namespace(),
                Fixtures.CONTROLLER.role(), Binding.DEFAULT, Path.of("").toAbsolutePath().toString(), self.pid(),
                started, Fixtures.BOOT, Fixtures.PID_NAMESPACE,
                Cohort.resolve(System.getenv(), true, self.parent().map(p -> OptionalLong.of(p.pid()))
                        .orElse(OptionalLong.empty())),
                Fixtures.HEAD, flags.contains("--http") ? Transport.STREAMABLE_HTTP
                        : Transport.STDIO, ClientProvenance.CLIENT_MANAGED);
        AssessFleetInventoryUseCase assess = selfAssessment
                ? () -> FleetClassifier.classify(selfSnapshot(fake, identity, started))
                : () -> {
                    System.out.println(NOISE);
                    return FleetClassifier.classify(Fixtures.duplicateAuthor(identity.answeredBy()));
                };
        InstantSource clock = selfAssessment || registry != fake ? Instant::now : new FixedClock(Fixtures.REGISTERED);
        ServerLifecycleService lifecycle = Fixtures.lifecycle(identity, registry, clock);
        FleetMcpServer server = new FleetMcpServer(assess, lifecycle, lifecycle, heartbeat);
        if (flags.contains("--http")) {
            StreamableHttpEndpoint.serve(server, null, StreamableHttpEndpoint.DEFAULT_HOST, 0,
                    running -> append(calls, "bound " + running.port()));
            return;
        }
        StdioServer.serve(server, status -> {
            append(calls, "exit " + status);
            ExitAction.systemExit().exit(status);
        });
    }

    /** The fake registry's rows, and this process as the one fleet server the process table shows. */
    private static Snapshot selfSnapshot(InMemoryRegistry registry, ServerIdentity identity, Instant started) {
        List<dev.fleet.domain.RegistryRow> rows = registry.rows().stream().map(Registration::toRow).toList();
        ObservedProcess me = new ObservedProcess(identity.pid(), started,
                "java TestServerMain serve --profile " + identity.profile(), "test", true);
        return new Snapshot(Roster.defaultRoster(), RegistryRead.of(rows),
                ProcessObservation.of(Fixtures.BOOT, "test-host", Fixtures.PID_NAMESPACE, List.of(me)), Instant.now(), "(in memory)",
                identity.answeredBy());
    }

    /** A registry whose heartbeats say when they enter it and when they come back, so a test sees one waiting. */
    private record ReportedHeartbeats(RegistryWriter registry, Path calls) implements RegistryWriter {
        @Override
        public void migrate() {
            registry.migrate();
        }

        @Override
        public Registration register(Registration registration, Optional<Duration> retention) {
            return registry.register(registration, retention);
        }

        @Override
        public boolean heartbeat(String runtimeId, Instant at) {
            append(calls, HEARTBEAT_BEGINS);
            try {
                return registry.heartbeat(runtimeId, at);
            } finally {
                append(calls, HEARTBEAT_ENDS);
            }
        }

        @Override
        public boolean markStopped(String runtimeId, Instant at) {
            return registry.markStopped(runtimeId, at);
        }
    }

    private static Optional<String> value(List<String> flags, String name) {
        return flags.stream().filter(flag -> flag.startsWith(name + "=")).findFirst()
                .map(flag -> flag.substring(name.length() + 1));
    }

    private static synchronized void append(Path file, String line) {
        try {
            Files.writeString(file, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
