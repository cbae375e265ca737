package dev.fleet.registry.sqlite;

import dev.fleet.domain.Binding;
import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.RosterMember;
import java.time.Instant;
import java.util.function.Consumer;

/** Builds registrations for tests: a healthy running default member, every field overridable. */
final class Registrations {

    static final Instant REGISTERED = Instant.parse("2026-07-28T02:00:00.250Z");
    static final String BOOT = "6f1e3b2a-0000-4000-8000-000000000001";
    static final String COHORT = "ppid:40990";
    static final String HEAD = "82d71b77028a7abd4f8ab4a4e4d89658a187f73d";
    static final String PID_NAMESPACE = "pid:[4026531836]";

    String runtimeId;
    String namespace;
    String profile;
    String role;
    String remote = Binding.DEFAULT.remote();
    String org = Binding.DEFAULT.org();
    String repo = Binding.DEFAULT.repo();
    String repositoryRoot = "/checkout/Gitea-Tools";
    long pid;
    String cohortId = COHORT;
    String cohortSource = Registration.COHORT_FROM_ENV;
    String clientProvenance = Registration.CLIENT_MANAGED;
    String bootId = BOOT;
    Instant processStartedAt = REGISTERED.minusMillis(1_750);
    String startupHead = HEAD;
    String transport = "stdio";
    RegistrationStatus status = RegistrationStatus.RUNNING;
    Instant registeredAt = REGISTERED;
    Instant lastHeartbeatAt = REGISTERED;
    Instant stoppedAt;
    String pidNamespace = PID_NAMESPACE;

    private Registrations(RosterMember member, long pid) {
        this.runtimeId = "rt-" + member.profile() + "-" + pid;
        this.namespace = member.namespace();
        this.profile = member.profile();
        this.role = member.role();
        this.pid = pid;
    }

    static Registrations of(RosterMember member, long pid) {
        return new Registrations(member, pid);
    }

    Registrations with(Consumer<Registrations> change) {
        change.accept(this);
        return this;
    }

    Registrations at(Instant registered) {
        this.registeredAt = registered;
        this.lastHeartbeatAt = registered;
        this.processStartedAt = registered.minusMillis(1_750);
        return this;
    }

    Registration build() {
        return new Registration(runtimeId, namespace, profile, role, remote, org, repo, repositoryRoot, pid,
                cohortId, cohortSource, clientProvenance, bootId, processStartedAt, startupHead, transport, status,
                registeredAt, lastHeartbeatAt, stoppedAt, pidNamespace);
    }

    RegistryRow row() {
        return build().toRow();
    }
}
