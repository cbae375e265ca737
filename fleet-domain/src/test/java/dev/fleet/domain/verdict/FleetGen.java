package dev.fleet.domain.verdict;

import static org.quicktheories.generators.SourceDSL.integers;

import dev.fleet.domain.ListingReason;
import dev.fleet.domain.ProcessObservation;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryReason;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Scenario;
import dev.fleet.domain.Snapshot;
import dev.fleet.domain.Timestamps;
import java.time.Instant;
import java.util.List;
import org.quicktheories.core.Gen;
import org.quicktheories.core.RandomnessSource;

/**
 * Generates consistent fleets: every roster member with zero to three registrations of assorted
 * health (live, dead, recycled pid, previous boot, start unknown, superseded, registered in another
 * pid namespace or before namespaces were recorded, naming a live process that is no server), strays outside the
 * roster or the binding, started by a few clients each alive, gone, gone with its pid recycled, or of
 * unknown start (some rows recording no parent or no parent start, some served over HTTP), unregistered server processes, stopped and malformed rows, a few cohorts
 * and revisions, and rarely an unreadable registry or an unavailable listing. Some members wrap their
 * own server ({@link WrappedFleet}): alive with workers below it (some of another owner), exited, its pid
 * recycled, registering itself, copied by hand beside it, or named by a spoofed {@code server_pid} (init's,
 * or a process not its child) with a copy by hand below; a wrapping row that records no server start serves nothing. Runtime ids and pids are unique per snapshot,
 * as a real registry and process table make them.
 */
public final class FleetGen {

    private static final List<String> COHORTS = List.of("ppid:100", "ppid:100", "ppid:100", "ppid:200");
    private static final List<String> HEADS = List.of("aaa111", "aaa111", "aaa111", "bbb222");
    static final String OTHER_PID_NAMESPACE = "pid:[4026532999]";
    /** The clients that start servers: pids 900, 901, 902, below every server's pid. */
    static final long FIRST_CLIENT_PID = 900;
    static final int CLIENTS = 3;
    static final Instant CLIENT_STARTED = RowBuilder.REGISTERED.minusSeconds(60);
    private static final Instant INIT_STARTED = CLIENT_STARTED.minusSeconds(3_600);

    private FleetGen() {
    }

    /** Random fleets; public for the adapters' properties (the MCP eras answer each alike). */
    public static Gen<Snapshot> fleets() {
        return ((Gen<Snapshot>) FleetGen::generate).describedAs(FleetGen::describe);
    }

    /** Like {@link #fleets()}, but the registry is readable and the listing available. */
    static Gen<Snapshot> observableFleets() {
        return ((Gen<Snapshot>) in -> build(in, false).snapshot()).describedAs(FleetGen::describe);
    }

    private static Snapshot generate(RandomnessSource in) {
        return build(in, true).snapshot();
    }

    private static Scenario build(RandomnessSource in, boolean mayFailToObserve) {
        Builder fleet = new Builder(in);
        if (fleet.pick(0, 2) == 0) {
            return fleet.healthyWithHarmlessLeftovers();
        }
        for (RosterMember member : fleet.scenario.roster.members()) {
            int registrations = fleet.pick(0, 9) < 7 ? 1 : fleet.pick(0, 3);
            for (int i = 0; i < registrations; i++) {
                if (fleet.pick(0, 3) == 0) {
                    fleet.wrapped(member);
                } else {
                    fleet.registration(member);
                }
            }
        }
        for (int i = fleet.pick(0, 2); i > 0; i--) {
            fleet.stray();
        }
        for (int i = fleet.pick(0, 3); i > 0; i--) {
            fleet.sideShow();
        }
        if (mayFailToObserve && fleet.pick(0, 19) == 0) {
            fleet.scenario.registryReason = RegistryReason.values()[fleet.pick(0, RegistryReason.values().length - 1)];
        }
        if (mayFailToObserve && fleet.pick(0, 19) == 0) {
            fleet.scenario.listingReason = ListingReason.values()[fleet.pick(0, ListingReason.values().length - 1)];
        }
        return fleet.scenario;
    }

    private static String describe(Snapshot snapshot) {
        StringBuilder text = new StringBuilder("registry ")
                .append(snapshot.registry() instanceof RegistryRead.Unreadable unreadable ? unreadable.reason() : null)
                .append(", listing ")
                .append(snapshot.observation() instanceof ProcessObservation.Unavailable u ? u.reason() : null).append('\n');
        snapshot.registry().rows().forEach(row -> text.append("  row ").append(row).append('\n'));
        snapshot.observation().processes().forEach(process -> text.append("  process ").append(process).append('\n'));
        return text.toString();
    }

    private static final class Builder {
        private final RandomnessSource in;
        private final Scenario scenario = Scenario.empty();
        private long nextPid = 2000;
        private int nextRuntime = 0;
        /** Per client pid: whether its servers record its start. Decided, with its fate, when first used. */
        private final java.util.Map<Long, Boolean> clients = new java.util.HashMap<>();

        Builder(RandomnessSource in) {
            this.in = in;
            scenario.roster = WrappedFleet.ROSTER;
        }

        int pick(int low, int high) {
            return integers().between(low, high).generate(in);
        }

        RowBuilder row(RosterMember member, long pid) {
            String runtimeId = String.format("rt-%03d", nextRuntime++);
            return RowBuilder.row(member, pid).with(r -> {
                r.runtimeId = runtimeId;
                r.cohortId = pickCohort();
                r.startupHead = pickHead();
                r.registeredAt = Timestamps.format(RowBuilder.REGISTERED.plusSeconds(pick(0, 3)));
                startedBy(r);
            });
        }

        /** Now and then no parent; else one of the clients, whose fate is decided once per snapshot. */
        private void startedBy(RowBuilder r) {
            int choice = pick(0, CLIENTS);
            if (choice == CLIENTS) {
                return;
            }
            long parent = FIRST_CLIENT_PID + choice;
            boolean recordsStart = clients.computeIfAbsent(parent, this::client);
            r.parentPid = parent;
            r.parentStartedAt = recordsStart ? Timestamps.format(CLIENT_STARTED) : null;
            if (pick(0, 5) == 0) {
                r.transport = "streamable_http";
            }
        }

        /** A client's fate in the observation: gone, recycled, of unknown start, or alive (its start read a little off). */
        private boolean client(long pid) {
            switch (pick(0, 4)) {
                case 0 -> { } // gone
                case 1 -> scenario.process(pid, CLIENT_STARTED.plusSeconds(pick(2, 3_600)), "bash"); // recycled
                case 2 -> scenario.process(pid, null, "claude"); // start unreadable
                default -> scenario.process(pid, CLIENT_STARTED.plusMillis(pick(-900, 900)), "claude");
            }
            return pick(0, 4) != 0;
        }

        private String pickCohort() {
            int choice = pick(0, COHORTS.size());
            return choice == COHORTS.size() ? null : COHORTS.get(choice);
        }

        private String pickHead() {
            int choice = pick(0, HEADS.size());
            return choice == HEADS.size() ? null : HEADS.get(choice);
        }

        void registration(RosterMember member) {
            long pid = nextPid++;
            RowBuilder row = row(member, pid);
            switch (pick(0, 14)) {
                case 0 -> scenario.row(row); // process exited
                case 1 -> scenario.row(row).process(pid, RowBuilder.REGISTERED.plusSeconds(pick(5, 60)),
                        Scenario.serveCommand(member.profile())); // pid recycled by a later process
                case 2 -> scenario.server(row.with(r -> r.bootId = "boot-before-reboot"));
                case 3 -> scenario.row(row).process(pid, null, Scenario.serveCommand(member.profile()));
                case 4 -> scenario.server(row).row(row(member, pid).with(r ->
                        r.registeredAt = "2026-07-28T01:59:59Z")); // an older row, same pid and process
                case 5 -> scenario.server(row.with(r ->
                        r.processStartedAt = Timestamps.format(Scenario.STARTED.minusSeconds(pick(0, 3)))));
                case 6 -> scenario.server(row.with(r -> r.pidNamespace = OTHER_PID_NAMESPACE)); // another namespace
                case 7 -> scenario.server(row.with(r -> r.pidNamespace = null)); // written before namespaces
                case 8 -> scenario.row(row.with(r -> r.pidNamespace = OTHER_PID_NAMESPACE)); // exited, or not ours
                case 9 -> scenario.row(row).process(pid, Scenario.STARTED, "sleep 600"); // live, but no server
                default -> scenario.server(row);
            }
        }

        /** One healthy instance per member on one cohort and revision, plus rows that block nothing. */
        Scenario healthyWithHarmlessLeftovers() {
            String cohort = COHORTS.get(pick(0, COHORTS.size() - 1));
            String head = HEADS.get(pick(0, HEADS.size() - 1));
            // Now and then one member alone differs: the splits a satisfied gate must never hide.
            int oddCohort = pick(0, 3 * scenario.roster.members().size());
            int oddHead = pick(0, 3 * scenario.roster.members().size());
            for (int i = 0; i < scenario.roster.members().size(); i++) {
                boolean cohortDiffers = i == oddCohort;
                boolean headDiffers = i == oddHead;
                RowBuilder member = row(scenario.roster.members().get(i), nextPid++).with(r -> {
                    r.cohortId = cohortDiffers ? "ppid:999" : cohort;
                    r.startupHead = headDiffers ? "ccc333" : head;
                });
                if (pick(0, 1) == 0) {
                    scenario.server(member);
                } else {
                    healthyServer(member);
                }
            }
            for (int i = pick(0, 3); i > 0; i--) {
                RosterMember member = scenario.roster.members().get(pick(0, scenario.roster.members().size() - 1));
                scenario.row(row(member, nextPid++).with(r -> r.status = pick(0, 1) == 0 ? "running" : "stopped"));
            }
            return scenario;
        }

        /**
         * A member wrapping its own server, whose fate is picked: alive (with workers below it now and then,
         * one of another owner), exited, its pid recycled, registering itself (under its member or another),
         * beside a copy started by hand, or spoofed.
         */
        void wrapped(RosterMember member) {
            RowBuilder row = row(member, nextPid++);
            switch (pick(0, 7)) {
                case 0 -> wrapping(row, nextPid++, pick(0, 1) == 0); // its server exited
                case 1 -> {
                    long server = nextPid++;
                    wrapping(row, server, pick(0, 1) == 0);
                    scenario.process(server, 1L, WrappedFleet.SERVER_STARTED.plusSeconds(pick(2, 60)), "bash",
                            WrappedFleet.USER); // the server's pid recycled
                }
                case 2 -> {
                    long server = healthyServer(row);
                    RosterMember claimed = pick(0, 2) == 0 ? scenario.roster.members().get(pick(0, 4)) : member;
                    scenario.row(row(claimed, server)); // the server registering itself
                }
                case 3 -> {
                    healthyServer(row);
                    scenario.process(nextPid++, 1L, WrappedFleet.SERVER_STARTED,
                            WrappedFleet.serverCommand(member.profile()), WrappedFleet.USER); // a copy by hand
                }
                case 4 -> spoofed(row);
                default -> healthyServer(row);
            }
        }

        /** {@code row}'s fleet process and the live server it wraps, with workers below it now and then; its pid. */
        private long healthyServer(RowBuilder row) {
            long server = nextPid++;
            wrapping(row, server, pick(0, 3) != 0);
            String command = WrappedFleet.serverCommand(row.profile);
            scenario.process(server, row.pid, WrappedFleet.SERVER_STARTED, command, WrappedFleet.USER);
            long parent = server;
            for (int workers = pick(-2, 2); workers > 0; workers--) {
                long worker = nextPid++;
                boolean shell = pick(0, 2) == 0;
                scenario.process(worker, parent, WrappedFleet.SERVER_STARTED.plusMillis(10L * (worker - server)),
                        shell ? "sh -c worker" : command + " --worker", pick(0, 4) == 0 ? "root" : WrappedFleet.USER);
                parent = shell ? worker : parent;
            }
            return server;
        }

        /**
         * {@code row} with its {@code server_pid} edited to name init (its start recorded or not) or a process
         * that is not its child (started by init), and a copy of its server started by hand below that pid: a
         * stray the spoofed column must not hide. (Its client is left alone: the orphan properties change the
         * clients' fates; {@code WrappedServerPropertiesTest} names the client itself.)
         */
        private void spoofed(RowBuilder row) {
            if (scenario.processes.stream().noneMatch(process -> process.pid() == 1L)) {
                scenario.process(1L, null, INIT_STARTED, "/sbin/init", WrappedFleet.USER);
            }
            long target = 1L;
            Instant recorded = pick(0, 1) == 0 ? INIT_STARTED : null;
            if (pick(0, 1) == 0) {
                target = nextPid++;
                recorded = WrappedFleet.SERVER_STARTED;
                scenario.process(target, 1L, recorded, "sh -c helper", WrappedFleet.USER);
            }
            scenario.server(row.wraps(WrappedFleet.serverCommand(row.profile), target, recorded));
            scenario.process(nextPid++, target, WrappedFleet.SERVER_STARTED.plusMillis(5),
                    WrappedFleet.serverCommand(row.profile), WrappedFleet.USER);
        }

        /** {@code row} wrapping the server on {@code server}, its start recorded or not; its fleet process observed. */
        private void wrapping(RowBuilder row, long server, boolean startRecorded) {
            scenario.server(row.wraps(WrappedFleet.serverCommand(row.profile) + " --token s3cr3t", server,
                    startRecorded ? WrappedFleet.SERVER_STARTED : null));
        }

        void stray() {
            RosterMember author = scenario.roster.members().get(0);
            long pid = nextPid++;
            if (pick(0, 1) == 0) {
                scenario.server(row(new RosterMember("gitea-stray", "prgs-stray", "stray"), pid));
            } else {
                scenario.server(row(author, pid).with(r -> r.repo = "Another-Repo"));
            }
        }

        void sideShow() {
            RosterMember member = scenario.roster.members().get(pick(0, scenario.roster.members().size() - 1));
            long pid = nextPid++;
            switch (pick(0, 4)) {
                case 0 -> scenario.process(pid, Scenario.STARTED, Scenario.serveCommand(member.profile()));
                case 1 -> scenario.row(row(member, pid).with(r -> r.status = "stopped"))
                        .process(pid, Scenario.STARTED, Scenario.serveCommand(member.profile()));
                case 2 -> scenario.row(row(member, pid).with(r -> r.status = "stopped"));
                case 3 -> scenario.row(row(member, pick(-1, 0)));
                default -> scenario.row(row(member, pid).with(r -> r.lastHeartbeatAt = "not-a-time"));
            }
        }
    }
}
