package dev.fleet.observer;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server process patterns of one observation, compiled once. A command line matches when any
 * pattern is found anywhere in it ({@link Matcher#find()}), exactly as {@code Roster.serverProcessMatcher}.
 * Holds one reusable matcher per pattern, so an instance belongs to a single scan (not thread-safe).
 */
final class ServerPatterns {

    private final List<Matcher> matchers;

    private ServerPatterns(List<Matcher> matchers) {
        this.matchers = matchers;
    }

    static ServerPatterns compile(List<String> patterns) {
        return new ServerPatterns(patterns.stream().map(pattern -> Pattern.compile(pattern).matcher("")).toList());
    }

    boolean matches(String commandLine) {
        for (Matcher matcher : matchers) {
            if (matcher.reset(commandLine).find()) {
                return true;
            }
        }
        return false;
    }
}
