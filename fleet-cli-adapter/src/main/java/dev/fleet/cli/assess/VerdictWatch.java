package dev.fleet.cli.assess;

import dev.fleet.domain.motion.DigestChange;
import dev.fleet.domain.verdict.Verdict;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * One look of {@code fleet watch}: assess, and print only when the digest changed (the first look
 * always prints). A look takes the digest alone; the verdict's text or JSON is written only for a
 * change, which most looks are not. Printing reports whether the reader is still there; when it is not, the watch
 * is done, quietly.
 */
final class VerdictWatch {

    private final Supplier<Verdict> assess;
    private final Function<Verdict, String> render;
    private final Predicate<String> print;
    private final DigestChange change = new DigestChange();
    private boolean readerGone;

    /**
     * @param render the text for a changed verdict
     * @param print writes it; false when standard output is closed
     */
    VerdictWatch(Supplier<Verdict> assess, Function<Verdict, String> render, Predicate<String> print) {
        this.assess = Objects.requireNonNull(assess, "assess");
        this.render = Objects.requireNonNull(render, "render");
        this.print = Objects.requireNonNull(print, "print");
    }

    /** One look; true when the watch is done (its reader has gone). */
    boolean step() {
        Verdict answer = assess.get();
        if (change.isChange(answer.verdictDigest()) && !print.test(render.apply(answer))) {
            readerGone = true;
        }
        return readerGone;
    }

    boolean readerGone() {
        return readerGone;
    }
}
