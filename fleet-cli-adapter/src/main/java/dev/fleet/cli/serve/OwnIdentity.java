package dev.fleet.cli.serve;

import dev.fleet.cli.exit.ConfigurationException;
import dev.fleet.cli.serve.GitHead;
import dev.fleet.cli.serve.ParentLooks;
import dev.fleet.domain.ClientProvenance;
import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.Printable;
import dev.fleet.domain.ProcessObservation;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.SecretMask;
import dev.fleet.domain.Transport;
import dev.fleet.domain.lifecycle.Cohort;
import dev.fleet.domain.lifecycle.ParentAtStart;
import dev.fleet.domain.lifecycle.ParentProcess;
import dev.fleet.domain.lifecycle.ServerIdentity;
import dev.fleet.domain.port.out.ProcessObserver;
import dev.fleet.observer.HostIdentity;
import dev.fleet.observer.RawCommandLine;
import dev.fleet.observer.ServerPatterns;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * What a starting {@code fleet serve} says about itself, and what it could tell of the process that
 * started it. The start instant comes from the process table, as the observer will later see it: the
 * clock read when main runs is a second late, which would look like a recycled pid. The pid namespace
 * too: an answerer in another one must not take this server's pid for a process of its own. The
 * parent is recorded only while it is still the parent first seen ({@link ParentAtStart}): never a
 * process that adopted this server.
 *
 * @param identity the server's registration, as the lifecycle writes it
 * @param atStart what could be told of the parent, once
 */
record OwnIdentity(ServerIdentity identity, ParentAtStart atStart) {

    /**
     * @param cohortFromParent whether the cohort may come from the parent ({@code --cohort-from-parent})
     * @param err where a checkout without a commit is warned about (never stdout, the protocol's)
     */
    static OwnIdentity read(RosterMember member, Roster fleet, ServeSettings settings, ProcessObserver observer,
            ParentLooks parents, boolean cohortFromParent, PrintWriter err) {
        Path root = settings.repositoryRoot();
        long pid = ProcessHandle.current().pid();
        OptionalLong parentPid = parents.first();
        boolean hasParent = parentPid.isPresent() && parentPid.getAsLong() > 0;
        // The parent is read in the same observation, its start as every start is read (never a clock).
        ProcessObservation self = observer.observe(List.of(), hasParent ? Set.of(pid, parentPid.getAsLong()) : Set.of(pid));
        requireVisibleAsServer(pid, fleet.serverProcessPatterns());
        Instant started = startOf(self, pid)
                .orElseGet(() -> ProcessHandle.current().info().startInstant().orElse(null));
        ParentAtStart atStart = parents.decide(hasParent ? startOf(self, parentPid.getAsLong()).orElse(null) : null);
        ParentProcess parent = atStart.recorded();
        Cohort cohort = Cohort.resolve(System.getenv(), cohortFromParent,
                parent == null ? OptionalLong.empty() : OptionalLong.of(parent.pid()));
        Transport served = settings.transport();
        return new OwnIdentity(new ServerIdentity(member.profile(), member.namespace(), member.role(), fleet.binding(),
                root.toString(), pid, started, self.bootId(), self.pidNamespace(), cohort, startupHead(root, err),
                served, ClientProvenance.typicalFor(served), null, parent, HostIdentity.ofThisHost()), atStart);
    }

    /** This process's start as the process table reports it now, or null when it will not say. */
    static Instant ownStart(ProcessObserver observer) {
        long pid = ProcessHandle.current().pid();
        return startOf(observer.observe(List.of(), Set.of(pid)), pid).orElse(null);
    }

    /**
     * Refuses to serve under a command line the roster's server process patterns do not match (a
     * renamed jar, {@code serve} hidden in an {@code @}-file): every assessment would miss this server,
     * so a sixth member started that way would leave the gate open. Where the command line cannot be
     * read (another platform), there is nothing to compare. Only this process's line is read (a pattern
     * given to the observer would read every command line on the host), unmasked, then matched here.
     */
    private static void requireVisibleAsServer(long pid, List<String> patternTexts) {
        ServerPatterns patterns = ServerPatterns.compile(patternTexts);
        // The line as an assessment matches it, unmasked: the observed one has its secrets masked.
        RawCommandLine.of(pid)
                .filter(line -> !patterns.matches(line))
                .ifPresent(line -> {
                    // The patterns are named: one that mcp-config wrote also pins --registry and the roster,
                    // which a member started with FLEET_REGISTRY instead does not show on its command line.
                    throw new ConfigurationException("this server's command line is not one the roster's "
                            + "server_process_patterns match, so no assessment would see it: start it as "
                            + "'java -jar .../fleet.jar serve ...' (or the fleet launcher), with serve and its options "
                            + "(those the patterns name, such as --registry) on the command line itself, not in an "
                            + "@-file or the environment; the patterns: " + SecretMask.commandLine(shown(patternTexts)));
                });
    }

    /** The roster's patterns as one short line: at most 300 characters of them. */
    private static String shown(List<String> patterns) {
        String all = Printable.of(String.join(" | ", patterns));
        return all.length() <= 300 ? all : all.substring(0, 300) + "…";
    }

    /** The checkout's HEAD; without one, a warning. */
    private static String startupHead(Path root, PrintWriter err) {
        String head = GitHead.read(root).orElse(null);
        if (head == null) {
            err.println("fleet: warning: --repository-root " + root + " is not a git checkout "
                    + "with a commit; this server reports startup_head null, so the fleet's revision is unknown");
            err.flush();
        }
        return head;
    }

    private static Optional<Instant> startOf(ProcessObservation observation, long pid) {
        return observation.processes().stream().filter(process -> process.pid() == pid)
                .map(ObservedProcess::startedAt).filter(Objects::nonNull).findFirst();
    }
}
