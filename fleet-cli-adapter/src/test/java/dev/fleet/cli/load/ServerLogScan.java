package dev.fleet.cli.load;

import static dev.fleet.cli.load.LoadHelpers.concat;

import dev.fleet.cli.testing.ServeProcess;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What every server of the load-and-fault suite ({@link LoadAndFaultIT}) logged over the whole run,
 * read once it is over: no busy error, no failed registration, no failed stop, each told with the
 * phase it was written in; what docs/CONTRACT.md allows (a stop that gives up its write, a starved
 * host's late registration) is counted instead.
 */
final class ServerLogScan extends LoadPhase {

    /** slf4j-simple's timestamp at the start of each server log line. */
    private static final DateTimeFormatter LOG_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ");
    /** Lines that mean a writer surfaced a lock: docs/CONTRACT.md says this never happens. */
    private static final List<String> BUSY_MARKERS = List.of("held it locked", "database is locked", "SQLITE_BUSY",
            "SQLITE_LOCKED");

    ServerLogScan(LoadRun run) {
        super(run);
    }

    /** Whatever a server logged over the whole run: no busy error, no failed registration, no failed stop. */
    void scanServerLogs() {
        long reRegistrations = 0;
        for (ServeProcess server : concat(run.servers, run.leftUnderLock)) {
            List<String> lines;
            try {
                lines = server.stderrText().lines().toList();
            } catch (IOException e) {
                found.problem("cannot read the log of pid " + server.pid() + ": " + e);
                continue;
            }
            reRegistrations += lines.stream().filter(line -> line.contains("registering again")).count();
            for (String line : lines) {
                if (line.contains("could not mark") && phaseOf(line).startsWith("stop")) {
                    // Fifty servers stopping at once: a stop gives up its write rather than its 2 s, as
                    // the contract allows; LoadStops checks that such rows read as exited.
                    found.count("server log: stop writes given up");
                    continue;
                }
                boolean busy = BUSY_MARKERS.stream().anyMatch(line::contains);
                if (busy && line.contains("busy through") && found.starved() && registeredAfter(lines, line)) {
                    found.count("server log: busy writes past the 30 s deadline on a starved host, registered later "
                            + "(allowed)");
                    continue;
                }
                if (run.leftUnderLock.contains(server) && line.contains("could not mark")
                        && phaseOf(line).equals("stop under an exclusive lock")) {
                    found.count("server log: stops under the exclusive lock left their row running (allowed)");
                    continue;
                }
                if (busy || line.contains("registration failed") || line.contains("could not mark")) {
                    String phase = phaseOf(line);
                    found.count("server log: " + (busy ? "busy errors" : "failed writes") + " in phase '" + phase + "'");
                    found.problem("[" + phase + "] pid " + server.pid() + ": " + line);
                } else if (line.contains("ERROR")) {
                    found.count("server log: other ERROR lines in phase '" + phaseOf(line) + "'");
                    found.problem("[" + phaseOf(line) + "] pid " + server.pid() + ": " + line);
                }
            }
        }
        found.figure("server log: 'registering again' lines", String.valueOf(reRegistrations));
    }

    /** When a server wrote {@code line}, from its slf4j-simple timestamp; empty for a line without one. */
    static Optional<Instant> logTime(String line) {
        try {
            return Optional.of(LOG_TIME.parse(line.substring(0, Math.min(line.length(), 28)),
                    Instant::from));
        } catch (RuntimeException notALogLine) {
            return Optional.empty();
        }
    }

    /** The phase a server's log line was written in, from its slf4j-simple timestamp. */
    private String phaseOf(String line) {
        Instant at = logTime(line).orElse(null);
        if (at == null) {
            return "unknown phase";
        }
        String phase = "before the suite";
        for (Map.Entry<Instant, String> entry : run.timeline) {
            if (entry.getKey().isAfter(at)) {
                break;
            }
            phase = entry.getValue();
        }
        return phase;
    }

    /**
     * Whether what {@code failure} left undone was done later: a failed registration is followed by a
     * registration. (A failed heartbeat logs nothing when the next one succeeds; a row it lost would
     * show in the audit and the settle checks, which are problems of their own.)
     */
    private static boolean registeredAfter(List<String> lines, String failure) {
        if (!failure.contains("registration failed")) {
            return true;
        }
        return lines.subList(lines.indexOf(failure), lines.size()).stream()
                .anyMatch(line -> line.contains("registered as runtime"));
    }
}
