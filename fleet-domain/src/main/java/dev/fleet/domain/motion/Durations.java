package dev.fleet.domain.motion;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * The one syntax every duration option takes: a whole number followed by {@code ms}, {@code s},
 * {@code m} or {@code h} ({@code 500ms}, {@code 2s}, {@code 5m}, {@code 1h}). Anything else is
 * refused with one line that says what to write instead.
 */
public final class Durations {

    /** What the syntax is, for an error message or a help text. */
    public static final String SYNTAX = "a whole number followed by ms, s, m or h (500ms, 2s, 5m, 1h)";

    /** Digits beyond these would overflow a {@link Duration} in milliseconds long before they mean anything. */
    private static final int MOST_DIGITS = 12;
    private static final Set<String> UNITS = Set.of("ms", "s", "m", "h");

    private Durations() {
    }

    /**
     * @throws IllegalArgumentException with a one-line message naming {@code text} and the syntax
     */
    public static Duration parse(String text) {
        Objects.requireNonNull(text, "text");
        int digits = 0;
        while (digits < text.length() && text.charAt(digits) >= '0' && text.charAt(digits) <= '9') {
            digits++;
        }
        String unit = text.substring(digits);
        if (digits > MOST_DIGITS && UNITS.contains(unit)) {
            // Written as asked, only far too long: saying it is no duration would send the user to the syntax.
            throw new IllegalArgumentException("'" + shown(text) + "' is longer than any duration option takes (a day "
                    + "at most): write " + SYNTAX);
        }
        if (digits == 0 || digits > MOST_DIGITS) {
            throw invalid(text);
        }
        long amount = Long.parseLong(text.substring(0, digits));
        return switch (unit) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            default -> throw invalid(text);
        };
    }

    /** The shortest exact spelling in this syntax: {@code 1h}, {@code 90s}, {@code 1500ms}. */
    public static String format(Duration duration) {
        long millis = duration.toMillis();
        if (millis % 3_600_000 == 0 && millis != 0) {
            return millis / 3_600_000 + "h";
        }
        if (millis % 60_000 == 0 && millis != 0) {
            return millis / 60_000 + "m";
        }
        if (millis % 1_000 == 0) {
            return millis / 1_000 + "s";
        }
        return millis + "ms";
    }

    private static IllegalArgumentException invalid(String text) {
        return new IllegalArgumentException("'" + shown(text) + "' is not a duration: write " + SYNTAX);
    }

    private static String shown(String text) {
        return text.length() > 40 ? text.substring(0, 40) + "…" : text;
    }
}
