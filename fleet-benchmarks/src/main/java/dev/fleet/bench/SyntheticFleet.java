package dev.fleet.bench;

import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.ProcessObservation;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.Snapshot;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * A large, deterministic snapshot that exercises every branch of the classifier: {@code size}
 * registry rows against {@code size} observed processes. Of the rows (by index modulo 100):
 * <ul>
 * <li>0-59: running and alive, rotating over the five roster members (so every member is a duplicate),</li>
 * <li>60-69: running, but no such process (stale, {@code process_exited}),</li>
 * <li>70-74: running, process started after the row was written (stale, {@code pid_reused}),</li>
 * <li>75-79: running with another binding (unexpected, {@code binding_mismatch}),</li>
 * <li>80-84: running with a profile outside the roster (unexpected, {@code not_in_roster}),</li>
 * <li>85-94: stopped,</li>
 * <li>95-98: running, another cohort and revision (splits both),</li>
 * <li>99: malformed (an unparseable {@code registered_at}).</li>
 * </ul>
 * Every process is a {@code fleet serve} command line (about 150 characters); one in ten has no
 * registration at all (unregistered). The JSON verdict for 10,000 is about 9 MB.
 */
public final class SyntheticFleet {

    static final long FIRST_PID = 100_000;
    static final Instant BOOT = Instant.parse("2026-07-28T00:00:00Z");
    private static final DateTimeFormatter WRITTEN =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private SyntheticFleet() {
    }

    public static Snapshot snapshot(int size) {
        return new Snapshot(Roster.defaultRoster(), RegistryRead.of(rows(size)), observation(size),
                BOOT.plusSeconds(86_400), "/var/lib/fleet/control_plane.sqlite3", null);
    }

    public static List<RegistryRow> rows(int size) {
        List<RosterMember> members = Roster.defaultRoster().members();
        List<RegistryRow> rows = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            int kind = i % 100;
            RosterMember member = members.get(i % members.size());
            long pid = FIRST_PID + i + (kind >= 60 && kind < 70 ? 5_000_000 : 0); // 60-69: no such process
            Instant started = startOf(i);
            Instant registered = kind >= 70 && kind < 75 ? started.minusSeconds(30) : started.plusSeconds(2);
            String profile = kind >= 80 && kind < 85 ? "prgs-intruder-" + i : member.profile();
            String remote = kind >= 75 && kind < 80 ? "elsewhere" : "prgs";
            String cohort = kind >= 95 && kind < 99 ? "ppid:7" : "ppid:4242";
            String head = kind >= 95 && kind < 99 ? "ffffffffffffffffffffffffffffffffffffffff"
                    : "0123456789abcdef0123456789abcdef01234567";
            String status = kind >= 85 && kind < 95 ? "stopped" : "running";
            String registeredAt = kind == 99 ? "yesterday" : WRITTEN.format(registered);
            rows.add(new RegistryRow(
                    String.format("%08x-0000-4000-8000-%012x", i, (long) i * 7919),
                    member.namespace(), profile, member.role(), remote, "Scaled-Tech-Consulting", "Gitea-Tools",
                    "/srv/checkouts/Gitea-Tools", pid, cohort, "parent_process", "client_managed",
                    "6f1c2a8e-3b1d-4c55-9a77-0d2c9e1b4f10", WRITTEN.format(started), head, "stdio", status,
                    registeredAt, WRITTEN.format(registered.plusSeconds(300)),
                    status.equals("stopped") ? WRITTEN.format(registered.plusSeconds(600)) : null,
                    "pid:[4026531836]", null, null, null, null));
        }
        return rows;
    }

    public static ProcessObservation observation(int size) {
        List<ObservedProcess> processes = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            long pid = FIRST_PID + i + (i % 10 == 9 ? 3_000_000 : 0); // one in ten: nobody registered it
            processes.add(new ObservedProcess(pid, startOf(i),
                    "java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -jar /opt/fleet/fleet-cli-adapter/target/fleet.jar "
                            + "serve --profile prgs-author --cohort-from-parent --repository-root /srv/checkouts/" + i,
                    "fleet", true));
        }
        return ProcessObservation.of("6f1c2a8e-3b1d-4c55-9a77-0d2c9e1b4f10", "fleet-host", "pid:[4026531836]",
                processes);
    }

    private static Instant startOf(int i) {
        return BOOT.plusMillis(1_000L * i + 137);
    }
}
