package dev.fleet.cli;

import dev.fleet.domain.motion.DigestChange;
import dev.fleet.domain.verdict.JsonVerdict;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * One look of {@code fleet watch}: assess, and print only when the digest changed (the first look
 * always prints). Printing reports whether the reader is still there; when it is not, the watch
 * is done, quietly.
 */
final class VerdictWatch {

    private final Supplier<JsonVerdict> assess;
    private final Function<JsonVerdict, String> render;
    private final Predicate<String> print;
    private final DigestChange change = new DigestChange();
    private boolean readerGone;

    /**
     * @param render the text for a changed verdict
     * @param print writes it; false when standard output is closed
     */
    VerdictWatch(Supplier<JsonVerdict> assess, Function<JsonVerdict, String> render, Predicate<String> print) {
        this.assess = Objects.requireNonNull(assess, "assess");
        this.render = Objects.requireNonNull(render, "render");
        this.print = Objects.requireNonNull(print, "print");
    }

    /** One look; true when the watch is done (its reader has gone). */
    boolean step() {
        JsonVerdict answer = assess.get();
        if (change.isChange(answer.verdict().verdictDigest()) && !print.test(render.apply(answer))) {
            readerGone = true;
        }
        return readerGone;
    }

    boolean readerGone() {
        return readerGone;
    }
}
