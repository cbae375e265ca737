package dev.fleet.domain.verdict;

import static org.quicktheories.generators.SourceDSL.integers;

import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.ProcessObservation;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.RowBuilder;
import dev.fleet.domain.Snapshot;
import java.util.ArrayList;
import java.util.List;
import org.quicktheories.core.Gen;
import org.quicktheories.core.RandomnessSource;

/**
 * {@link FleetGen}'s fleets with hostile text wherever a verdict shows text from outside: in the
 * registry's rows (now and then their namespace too, making strays and malformed rows of them), the
 * command lines of processes and the host's name. Hostile: C0, DEL and C1 controls, bidirectional
 * controls, line separators, quotes and backslashes, unpaired surrogates of either half, characters
 * beyond the BMP, any code point at all, and texts longer than the cap ({@link OutsideText}).
 */
final class HostileFleets {

    private static final List<String> PIECES = List.of("", "plain", "\u0000", "\u0001", "\t", "\n", "\u001b[2J",
            "\u001f", "\u007f", "\u0085", "\u009b", "\u009f", "\u00a0", "\"", "\\", "\\u0000", "é", "ß", "€",
            "\u200e", "\u200f", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068",
            "\u2069", "\u2028", "\u2029", "\ufeff", "\uffff", "\ud834", "\udd1e", "\udd1e\ud834", "𝄞", "😀",
            "…[truncated, 5 chars]", " ");

    private HostileFleets() {
    }

    static Gen<Snapshot> fleets() {
        Gen<Snapshot> fleets = FleetGen.fleets();
        return in -> hostile(fleets.generate(in), in);
    }

    private static Snapshot hostile(Snapshot snapshot, RandomnessSource in) {
        List<RegistryRow> rows = new ArrayList<>();
        for (RegistryRow row : snapshot.registry().rows()) {
            RowBuilder changed = RowBuilder.from(row);
            changed.runtimeId = changed.runtimeId + text(in);
            changed.transport = text(in);
            changed.clientProvenance = text(in);
            changed.cohortSource = text(in);
            if (pick(in, 0, 1) == 0) {
                changed.cohortId = text(in);
                changed.startupHead = text(in);
            }
            if (pick(in, 0, 3) == 0) {
                changed.namespace = text(in);
            }
            if (changed.serverCommand != null || pick(in, 0, 3) == 0) {
                changed.serverCommand = text(in);
            }
            rows.add(changed.build());
        }
        RegistryRead registry = snapshot.registry() instanceof RegistryRead.Unreadable ? snapshot.registry()
                : RegistryRead.of(rows);
        ProcessObservation observation = snapshot.observation();
        if (observation instanceof ProcessObservation.Available available) {
            List<ObservedProcess> processes = new ArrayList<>();
            for (ObservedProcess p : available.processes()) {
                processes.add(new ObservedProcess(p.pid(), p.startedAt(), p.commandLine() + text(in), p.user(),
                        p.matchesServer(), p.parentPid()));
            }
            observation = new ProcessObservation.Available(available.bootId(), text(in), available.pidNamespace(),
                    processes);
        }
        return new Snapshot(snapshot.roster(), registry, observation, snapshot.observedAt(), text(in),
                snapshot.answeredBy());
    }

    /** A hostile text: a few pieces and code points, or now and then one longer than the cap. */
    static String text(RandomnessSource in) {
        StringBuilder text = new StringBuilder();
        boolean long_ = pick(in, 0, 7) == 0;
        int parts = long_ ? pick(in, 1, 3) : pick(in, 0, 8);
        for (int i = 0; i < parts; i++) {
            if (long_) {
                text.append(PIECES.get(pick(in, 0, PIECES.size() - 1)).repeat(pick(in, 1, 5_000)));
            } else if (pick(in, 0, 2) == 0) {
                text.appendCodePoint(pick(in, 0, Character.MAX_CODE_POINT));
            } else {
                text.append(PIECES.get(pick(in, 0, PIECES.size() - 1)));
            }
        }
        return text.toString();
    }

    private static int pick(RandomnessSource in, int low, int high) {
        return integers().between(low, high).generate(in);
    }
}
