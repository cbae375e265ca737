package dev.fleet.cli.option;

import dev.fleet.cli.exit.ConfigurationException;
import dev.fleet.domain.motion.Durations;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads every duration option ({@code --interval}, {@code --timeout}) through the domain's one
 * syntax, {@link Durations}: {@code 500ms}, {@code 2s}, {@code 5m}, {@code 1h}. Anything else is a
 * usage error (exit 2) in one line that says what to write.
 */
public final class DurationConverter implements ITypeConverter<Duration> {

    @Override
    public Duration convert(String value) {
        try {
            return Durations.parse(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }

    /**
     * {@code value} checked against its option's range.
     *
     * @throws ConfigurationException (exit 2, one line) outside {@code [least, most]}
     */
    public static Duration within(String option, Duration value, Duration least, Duration most) {
        if (value.compareTo(least) < 0 || value.compareTo(most) > 0) {
            throw new ConfigurationException(option + " must be from " + Durations.format(least) + " to "
                    + Durations.format(most) + ", got " + Durations.format(value));
        }
        return value;
    }
}
