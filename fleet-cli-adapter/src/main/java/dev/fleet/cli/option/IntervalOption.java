package dev.fleet.cli.option;

import java.time.Duration;
import picocli.CommandLine.Option;

/** {@code --interval DUR}: how often a watching verb assesses, from 100ms to 1h (default 1s). */
public final class IntervalOption {

    static final Duration LEAST = Duration.ofMillis(100);
    static final Duration MOST = Duration.ofHours(1);

    @Option(names = "--interval", defaultValue = "1s", paramLabel = "DUR", converter = DurationConverter.class,
            description = "How often to assess: 100ms to 1h (default: ${DEFAULT-VALUE}; 500ms, 2s, 5m, 1h).")
    Duration interval;

    /** @throws dev.fleet.cli.exit.ConfigurationException outside 100ms to 1h */
    public Duration interval() {
        return DurationConverter.within("--interval", interval, LEAST, MOST);
    }
}
