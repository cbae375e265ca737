package dev.fleet.cli.assess;

import dev.fleet.domain.motion.Repeat;
import dev.fleet.domain.motion.WaitCondition;
import dev.fleet.domain.verdict.Verdict;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/** {@code fleet wait}: look every interval until the condition holds or the timeout passes. */
final class VerdictWait {

    /** How the wait ended: whether the condition held, and the last verdict seen (the one to print). */
    record Outcome(boolean held, Verdict last) {
    }

    private final Supplier<Verdict> assess;
    private final WaitCondition condition;
    private final Repeat repeat;

    VerdictWait(Supplier<Verdict> assess, WaitCondition condition, Repeat repeat) {
        this.assess = Objects.requireNonNull(assess, "assess");
        this.condition = Objects.requireNonNull(condition, "condition");
        this.repeat = Objects.requireNonNull(repeat, "repeat");
    }

    Outcome await(Duration timeout) throws InterruptedException {
        Verdict[] last = new Verdict[1];
        boolean held = repeat.until(() -> {
            last[0] = assess.get();
            return condition.holds(last[0].mutationGateSatisfied(), last[0].verdictDigest());
        }, timeout);
        return new Outcome(held, last[0]);
    }
}
