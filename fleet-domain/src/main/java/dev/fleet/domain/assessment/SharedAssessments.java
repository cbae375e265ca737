package dev.fleet.domain.assessment;

import dev.fleet.domain.port.in.AssessFleetInventoryUseCase;
import dev.fleet.domain.verdict.Verdict;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Assessments asked for at once, shared: at most one runs at a time, and a caller gets the verdict of
 * an assessment that began after it asked, its own or one another caller began while it waited. A
 * burst of requests (forty dashboards' {@code /verdict}, a scraper beside them) costs two assessments,
 * not forty at once on two cores, and no answer is older than its request.
 *
 * <p>Each assessment is numbered as it begins. A caller notes the last number begun when it asks;
 * once it holds the (fair) lock, a verdict numbered higher began after that and is as fresh as one
 * of its own, so it takes it; otherwise it assesses. So a caller waits at most for the assessment
 * running when it asked and the next one, and never longer than {@link #PATIENCE} for its turn. What
 * may be no verdict of the fleet is never shared: an assessment that throws (a bug: problems are
 * verdicts), or one made on a thread interrupted meanwhile (its registry read answers "interrupted"),
 * which only its own caller gets; the next waiter then assesses afresh.
 */
public final class SharedAssessments implements AssessFleetInventoryUseCase {

    /**
     * How long a caller waits for its turn: far beyond an assessment's usual milliseconds. Past it the
     * one running is stuck (nothing bounds a read of {@code /proc} the kernel holds), and a caller
     * assesses alone rather than wait with it.
     */
    static final Duration PATIENCE = Duration.ofSeconds(10);

    private final AssessFleetInventoryUseCase assessment;
    private final Duration patience;
    private final ReentrantLock oneAtATime = new ReentrantLock(true);
    private final AtomicLong begun = new AtomicLong();
    /** The last verdict and its number; both only under the lock. */
    private Verdict latest;
    private long latestNumber;

    public SharedAssessments(AssessFleetInventoryUseCase assessment) {
        this(assessment, PATIENCE);
    }

    SharedAssessments(AssessFleetInventoryUseCase assessment, Duration patience) {
        this.assessment = Objects.requireNonNull(assessment, "assessment");
        this.patience = Objects.requireNonNull(patience, "patience");
    }

    @Override
    public Verdict assess() {
        long asked = begun.get();
        try {
            if (!oneAtATime.tryLock(patience.toNanos(), TimeUnit.NANOSECONDS)) {
                return assessment.assess(); // one is stuck (a /proc read the kernel holds): go alone, as before sharing
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return assessment.assess(); // what an interrupted caller always got: its own, which says so
        }
        try {
            if (latest != null && latestNumber > asked) {
                return latest;
            }
            long number = begun.incrementAndGet();
            Verdict verdict = assessment.assess();
            if (!Thread.currentThread().isInterrupted()) {
                latest = verdict;
                latestNumber = number;
            }
            return verdict;
        } finally {
            oneAtATime.unlock();
        }
    }
}
