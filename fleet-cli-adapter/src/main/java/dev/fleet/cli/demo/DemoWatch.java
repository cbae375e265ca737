package dev.fleet.cli.demo;

import dev.fleet.domain.motion.Durations;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What the demo tells a person who follows it in the dashboard: the command that runs fleet again as
 * shell words pasted as they are, the directory it must be run from when it is relative (null when
 * it is absolute), and how long each step is held ({@code --pause}) so that the page can be watched.
 */
public record DemoWatch(String fleetCommand, Path directory, Duration pause) {

    /** The longest hold: long enough to look at a page, short enough that a typo does not park the demo. */
    public static final Duration MOST_PAUSE = Duration.ofMinutes(10);

    /** What a POSIX shell takes as one word as it is; anything else is single-quoted. */
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");

    public DemoWatch {
        Objects.requireNonNull(fleetCommand, "fleetCommand");
        Objects.requireNonNull(pause, "pause");
        if (pause.isNegative() || pause.compareTo(MOST_PAUSE) > 0) {
            throw new IllegalArgumentException("a pause from 0s to " + Durations.format(MOST_PAUSE) + ", got " + pause);
        }
    }

    /** {@code text} as one shell word: as it is when a shell sees nothing special in it, else single-quoted. */
    public static String shellWord(String text) {
        return PLAIN.matcher(text).matches() ? text : "'" + text.replace("'", "'\\''") + "'";
    }

    /** The lines that say how to watch the demo's fleet live: the command on a line of its own, to copy. */
    void printHint(PrintWriter out, String registry, Path roster) {
        out.println("   to watch it live in a browser, run this in another terminal"
                + (directory == null ? "" : " from " + shellWord(directory.toString()))
                + ", then open the address it prints:");
        out.println("     " + fleetCommand + " dashboard --registry " + shellWord(registry) + " --roster "
                + shellWord(roster.toString()));
        if (pause.isZero()) {
            out.println("   (" + fleetCommand + " demo --pause 5s holds each step for 5 s, to follow it there)");
        }
        out.flush();
    }

    /** Holds the story for the pause, saying so; returns at once without one. */
    void hold(PrintWriter out) throws InterruptedException {
        if (pause.isZero()) {
            return;
        }
        out.printf("   (holding %s: --pause)%n", Durations.format(pause));
        out.flush();
        Thread.sleep(pause.toMillis());
    }
}
