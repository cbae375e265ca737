package dev.fleet.mcp;

import dev.fleet.domain.Binding;
import dev.fleet.domain.port.in.AssessFleetInventoryUseCase;
import dev.fleet.domain.verdict.FleetClassifier;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;

/**
 * A stdio fleet server with fakes for the domain ports only, started by tests as a real
 * subprocess. stdout is the protocol, so it reports the fake registry's calls (and its own exit)
 * by appending lines to the file named by its first argument.
 *
 * <p>Usage: {@code TestServerMain <calls-file> [--fail-registration] [--http]}; with {@code --http} it
 * serves streamable HTTP on an ephemeral loopback port and reports {@code bound <port>}.
 */
public final class TestServerMain {

    /** What the fake use case prints to System.out, as a library might: it must never reach stdout. */
    static final String NOISE = "noise from a library that prints to System.out";

    private TestServerMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        Path calls = Path.of(args[0]);
        List<String> flags = Arrays.asList(args).subList(1, args.length);
        InMemoryRegistry registry = new InMemoryRegistry(line -> append(calls, line));
        if (flags.contains("--fail-registration")) {
            registry.failRegistrationsWith(new IllegalStateException("registry is read-only (test)"));
        }
        ProcessHandle self = ProcessHandle.current();
        ServerIdentity identity = new ServerIdentity(Fixtures.CONTROLLER.profile(), Fixtures.CONTROLLER.namespace(),
                Fixtures.CONTROLLER.role(), Binding.DEFAULT, Path.of("").toAbsolutePath().toString(), self.pid(),
                self.info().startInstant().orElse(null), Fixtures.BOOT, Fixtures.PID_NAMESPACE,
                Cohort.resolve(System.getenv(), true, self.parent().map(p -> OptionalLong.of(p.pid()))
                        .orElse(OptionalLong.empty())),
                GitHead.read(Path.of("")).orElse(null), Transport.STDIO, ClientProvenance.CLIENT_MANAGED);
        AssessFleetInventoryUseCase assess = () -> {
            System.out.println(NOISE);
            return FleetClassifier.classify(Fixtures.duplicateAuthor(identity.answeredBy()));
        };
        FleetMcpServer server =
                new FleetMcpServer(assess, identity, registry, new FixedClock(Fixtures.REGISTERED), Duration.ofHours(1));
        if (flags.contains("--http")) {
            server.serveHttp(FleetMcpServer.DEFAULT_HOST, 0, running -> append(calls, "bound " + running.port()));
            return;
        }
        server.serveStdio(status -> {
            append(calls, "exit " + status);
            ExitAction.systemExit().exit(status);
        });
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
