package dev.fleet.domain.verdict;

import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.ProcessObservation;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Snapshot;
import java.util.List;
import java.util.stream.Stream;

/**
 * What the classifier's property tests share: a generated snapshot with its rows or processes
 * replaced (the rest, an unreadable registry or an unavailable listing included, left as it was),
 * and the instances a verdict counts live, members' and unexpected ones alike.
 */
final class ClassifierProperties {

    private ClassifierProperties() {
    }

    static Snapshot with(Snapshot snapshot, List<RegistryRow> rows, List<ObservedProcess> processes) {
        ProcessObservation observation = snapshot.observation();
        return new Snapshot(snapshot.roster(),
                snapshot.registry().readable() ? RegistryRead.of(rows) : snapshot.registry(),
                observation instanceof ProcessObservation.Available
                        ? ProcessObservation.of(observation.bootId(), observation.hostname(), observation.pidNamespace(),
                                processes)
                        : observation,
                snapshot.observedAt(), snapshot.registryPath(), snapshot.answeredBy());
    }

    static Stream<Instance> live(Verdict verdict) {
        return Stream.concat(verdict.members().stream().flatMap(report -> report.instances().stream()),
                verdict.unexpectedMembers().stream().map(FlaggedRegistration::instance));
    }
}
