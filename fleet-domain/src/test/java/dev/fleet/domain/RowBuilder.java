package dev.fleet.domain;

import java.time.Instant;

/** Builds registry rows for tests: a healthy running row by default, every column overridable. */
public final class RowBuilder {

    public static final Instant REGISTERED = Instant.parse("2026-07-28T02:00:00.250Z");
    public static final String BOOT = "6f1e3b2a-0000-4000-8000-000000000001";
    public static final String COHORT = "ppid:40990";
    public static final String HEAD = "82d71b77028a7abd4f8ab4a4e4d89658a187f73d";
    /** The host's pid namespace, where the answerer runs too unless a test says otherwise. */
    public static final String PID_NAMESPACE = "pid:[4026531836]";

    public String runtimeId;
    public String namespace;
    public String profile;
    public String role;
    public String remote = Binding.DEFAULT.remote();
    public String org = Binding.DEFAULT.org();
    public String repo = Binding.DEFAULT.repo();
    public String repositoryRoot = "/checkout/Gitea-Tools";
    public Long pid;
    public String cohortId = COHORT;
    public String cohortSource = "env";
    public String clientProvenance = "client_managed";
    public String bootId = BOOT;
    public String processStartedAt;
    public String startupHead = HEAD;
    public String transport = "stdio";
    public String status = "running";
    public String registeredAt = Timestamps.format(REGISTERED);
    public String lastHeartbeatAt = Timestamps.format(REGISTERED);
    public String stoppedAt;
    public String pidNamespace = PID_NAMESPACE;
    public String endpoint;
    public Long parentPid;
    public String parentStartedAt;
    public String hostId;
    public String serverCommand;
    public Long serverPid;
    public String serverStartedAt;

    private RowBuilder(RosterMember member, long pid) {
        this.runtimeId = "rt-" + member.profile() + "-" + pid;
        this.namespace = member.namespace();
        this.profile = member.profile();
        this.role = member.role();
        this.pid = pid;
    }

    public static RowBuilder row(RosterMember member, long pid) {
        return new RowBuilder(member, pid);
    }

    /** A running registration, registered at {@link #REGISTERED} by a process that started just before. */
    public static RowBuilder registered(RosterMember member, long pid) {
        return row(member, pid).at(REGISTERED);
    }

    /** Registered and last heartbeating at {@code registered}, by a process that started 1.75 s before. */
    public RowBuilder at(Instant registered) {
        registeredAt = Timestamps.format(registered);
        lastHeartbeatAt = registeredAt;
        processStartedAt = Timestamps.format(registered.minusMillis(1_750));
        return this;
    }

    /** The row as the registration it reads as; fails when it reads as malformed. */
    public Registration registration() {
        InterpretedRow interpreted = build().interpret();
        if (interpreted instanceof Registration registration) {
            return registration;
        }
        throw new IllegalArgumentException("this row reads as malformed: " + interpreted);
    }

    /** Every column of {@code row}, to change some of them. */
    public static RowBuilder from(RegistryRow row) {
        RowBuilder copy = new RowBuilder(new RosterMember(row.namespace(), row.profile(), row.role()), 1);
        copy.runtimeId = row.runtimeId();
        copy.remote = row.remote();
        copy.org = row.org();
        copy.repo = row.repo();
        copy.repositoryRoot = row.repositoryRoot();
        copy.pid = row.pid();
        copy.cohortId = row.cohortId();
        copy.cohortSource = row.cohortSource();
        copy.clientProvenance = row.clientProvenance();
        copy.bootId = row.bootId();
        copy.processStartedAt = row.processStartedAt();
        copy.startupHead = row.startupHead();
        copy.transport = row.transport();
        copy.status = row.status();
        copy.registeredAt = row.registeredAt();
        copy.lastHeartbeatAt = row.lastHeartbeatAt();
        copy.stoppedAt = row.stoppedAt();
        copy.pidNamespace = row.pidNamespace();
        copy.endpoint = row.endpoint();
        copy.parentPid = row.parentPid();
        copy.parentStartedAt = row.parentStartedAt();
        copy.hostId = row.hostId();
        copy.serverCommand = row.serverCommand();
        copy.serverPid = row.serverPid();
        copy.serverStartedAt = row.serverStartedAt();
        return copy;
    }

    /** Started by {@code pid}, which started at {@code startedAt} (null: the row records no start). */
    public RowBuilder parent(long pid, Instant startedAt) {
        parentPid = pid;
        parentStartedAt = Timestamps.format(startedAt);
        return this;
    }

    /** Wraps the server {@code command} run as {@code pid}, started at {@code startedAt} (null: no start recorded). */
    public RowBuilder wraps(String command, long pid, Instant startedAt) {
        serverCommand = command;
        serverPid = pid;
        serverStartedAt = Timestamps.format(startedAt);
        return this;
    }

    public RowBuilder with(java.util.function.Consumer<RowBuilder> change) {
        change.accept(this);
        return this;
    }

    public RegistryRow build() {
        return new RegistryRow(runtimeId, namespace, profile, role, remote, org, repo, repositoryRoot, pid, cohortId,
                cohortSource, clientProvenance, bootId, processStartedAt, startupHead, transport, status, registeredAt,
                lastHeartbeatAt, stoppedAt, pidNamespace, endpoint, parentPid, parentStartedAt, hostId, serverCommand,
                serverPid, serverStartedAt);
    }
}
