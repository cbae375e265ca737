package dev.fleet.observer;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * RE2J's compile, given a deadline. A pattern within {@link PatternLimits} compiles in milliseconds,
 * but RE2J 1.8 never finishes folding the case of U+1C80-U+1C88 (its fold orbit never comes back to
 * the start): {@code (?i)\x{1C80}}, or any case-insensitive class that covers one, spins for ever. A
 * roster holding such a pattern is refused in one line rather than hanging the verb. The spinning
 * thread, a daemon, cannot be stopped; the refusal ends the process that started it.
 */
final class BoundedCompile {

    /** Far beyond what any pattern within the limits takes, even on a loaded host. */
    static final Duration DEADLINE = Duration.ofSeconds(5);

    private BoundedCompile() {
    }

    /**
     * {@code pattern} compiled, or the refusal naming it ({@code index} in its list).
     *
     * @throws InvalidServerPatternException when RE2J refuses it or does not finish within {@link #DEADLINE}
     */
    static Pattern compile(int index, String pattern) {
        FutureTask<Pattern> compiling = new FutureTask<>(() -> Pattern.compile(pattern));
        Thread thread = new Thread(compiling, "fleet-pattern-compile");
        thread.setDaemon(true);
        thread.start();
        try {
            return compiling.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof PatternSyntaxException syntax) {
                throw new InvalidServerPatternException(index, pattern,
                        syntax.getDescription() + " `" + syntax.getPattern() + "`");
            }
            throw new IllegalStateException("RE2J failed on a pattern within the limits", e.getCause());
        } catch (TimeoutException e) {
            thread.interrupt();
            throw new InvalidServerPatternException(index, pattern, "RE2J did not finish compiling it within "
                    + DEADLINE.toSeconds() + " s (RE2J 1.8 never does with case-insensitive U+1C80-U+1C88)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while compiling a server process pattern", e);
        }
    }
}
