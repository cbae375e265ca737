package dev.fleet.cli.option;

import dev.fleet.domain.Lease;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** {@code --lease DUR}: {@code 500ms}, {@code 90s}, {@code 5m}, {@code 1h}; positive, at most a day. */
public final class LeaseConverter implements ITypeConverter<Lease> {

    private static final Pattern DURATION = Pattern.compile("([0-9]{1,9})(ms|s|m|h)");
    private static final Duration LONGEST = Duration.ofDays(1);

    @Override
    public Lease convert(String value) {
        Matcher matcher = DURATION.matcher(value.strip());
        if (!matcher.matches()) {
            throw new TypeConversionException("'" + value + "' is not a duration such as 500ms, 90s, 5m or 1h");
        }
        long amount = Long.parseLong(matcher.group(1));
        Duration length = switch (matcher.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            default -> Duration.ofHours(amount);
        };
        if (length.isZero() || length.compareTo(LONGEST) > 0) {
            throw new TypeConversionException("a lease lasts from 1ms to 24h, not " + value);
        }
        return new Lease(length);
    }
}
