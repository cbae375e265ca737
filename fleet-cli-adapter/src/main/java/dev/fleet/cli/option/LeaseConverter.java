package dev.fleet.cli.option;

import dev.fleet.domain.Lease;
import dev.fleet.domain.motion.Durations;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code --lease DUR} in the one syntax of every duration option ({@link Durations}: {@code 500ms},
 * {@code 90s}, {@code 5m}, {@code 1h}), from 1ms to a day: a lease of nothing would make every
 * remote row stale at once, and one beyond a day would keep a host gone long ago live.
 */
public final class LeaseConverter implements ITypeConverter<Lease> {

    private static final Duration SHORTEST = Duration.ofMillis(1);
    private static final Duration LONGEST = Duration.ofDays(1);

    @Override
    public Lease convert(String value) {
        Duration lease;
        try {
            lease = Durations.parse(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage()); // picocli names the option before it, once
        }
        if (lease.compareTo(SHORTEST) < 0 || lease.compareTo(LONGEST) > 0) {
            throw new TypeConversionException("--lease must be from " + Durations.format(SHORTEST) + " to "
                    + Durations.format(LONGEST) + ", got " + value);
        }
        return new Lease(lease);
    }
}
