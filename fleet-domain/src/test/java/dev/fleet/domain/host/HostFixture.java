package dev.fleet.domain.host;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Builds host snapshots for the classifier's tests: processes by pid with their parent, start (in
 * ticks, and the instant those ticks mean on a boot at {@link #BOOT}), argv and stdio, and configured
 * entries whose launch form is their command and args.
 */
final class HostFixture {

    static final Instant BOOT = Instant.parse("2026-12-01T08:00:00Z");
    static final String BOOT_ID = "0f3c9d2e-1b7a-4c55-9e0d-2a6b8f1c3d4e";
    static final long OWN_PID = 99_999;

    final List<ConfiguredServer> configured = new ArrayList<>();
    final List<HostProcess> processes = new ArrayList<>();
    /** The processes the fleet's observer found matching its roster's patterns. */
    final Set<Long> fleetPids = new HashSet<>();
    final List<String> warnings = new ArrayList<>();
    /** Whether the table may leave out other users' processes ({@code /proc}'s hidepid): absent ones may be live. */
    boolean partial;

    /** The instant {@code ticks} clock ticks after boot mean. */
    static Instant at(long ticks) {
        return BOOT.plusMillis(ticks * 10);
    }

    static ConfiguredServer entry(ClientKind client, String name, String command, String... args) {
        List<String> form = new ArrayList<>();
        form.add(command);
        form.addAll(Arrays.asList(args));
        return new ConfiguredServer(client, "/home/u/." + client.label() + ".json", name, null, command,
                Arrays.asList(args), List.of(form));
    }

    HostFixture configure(ConfiguredServer server) {
        configured.add(server);
        return this;
    }

    /** A process with a pipe on stdin and stdout ({@code pipe} its inode, 0 for none), holding no pipe. */
    HostFixture process(long pid, long parent, long ticks, long pipe, String... argv) {
        return add(new HostProcess(pid, parent, pid, pid, 1000, ticks, at(ticks), List.of(argv), false,
                pipe == 0 ? null : pipe, pipe != 0, Set.of(), 1024, true));
    }

    /**
     * A process whose stdin is one end of a socketpair ({@code socket} its inode), its stdout a socket too, holding
     * no channel: a Node client's server. Whoever holds the socket numbered next to it lists {@code socket} among
     * the channels it writes, as the observer finds it.
     */
    HostFixture overSocket(long pid, long parent, long ticks, long socket, String... argv) {
        return add(new HostProcess(pid, parent, pid, pid, 1000, ticks, at(ticks), List.of(argv), false, socket, true,
                true, Set.of(), 1024, true));
    }

    /** A client: stdin a terminal, holding the writing ends of {@code writes}. */
    HostFixture client(long pid, long parent, long ticks, Set<Long> writes, String... argv) {
        return add(new HostProcess(pid, parent, pid, pid, 1000, ticks, at(ticks), List.of(argv), true, null, false,
                writes, 4096, true));
    }

    /** A process whose stdin is a terminal. */
    HostFixture byHand(long pid, long parent, long ticks, String... argv) {
        return add(new HostProcess(pid, parent, pid, pid, 1000, ticks, at(ticks), List.of(argv), true, null, false,
                Set.of(), 1024, true));
    }

    HostFixture add(HostProcess process) {
        processes.add(process);
        return this;
    }

    /** Init and the user's systemd, a subreaper of no client kind, are in every table. */
    HostFixture withInit() {
        process(1, 0, 1, 0, "/sbin/init");
        return process(500, 1, 50, 0, "/usr/lib/systemd/systemd", "--user");
    }

    HostSnapshot snapshot() {
        return new HostSnapshot(configured, processes, BOOT_ID, OWN_PID, fleetPids, warnings, true, partial);
    }

    HostReport report() {
        return HostClassifier.classify(snapshot(), false);
    }

    HostReport reportAll() {
        return HostClassifier.classify(snapshot(), true);
    }

    static HostServer server(HostReport report, long rootPid) {
        return report.servers().stream().filter(server -> server.rootPid() == rootPid).findFirst()
                .orElseThrow(() -> new AssertionError("no server rooted at " + rootPid + " in " + report));
    }
}
