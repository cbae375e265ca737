package dev.fleet.domain;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The registry's timestamp dialect. Written as {@code YYYY-MM-DDTHH:MM:SS.sssZ}; read leniently
 * from any ISO-8601 instant with an optional 1-9 digit fraction and {@code Z} or a numeric offset
 * ({@code +HH:MM}, {@code +HHMM} or {@code +HH}),
 * because other tools write whole seconds or {@code +00:00}. Anything else is unparseable. The
 * JDK's parser and formatter do the work; the pattern below only narrows what the parser would take
 * to the forms the contract accepts.
 */
public final class Timestamps {

    /** The last year the written form {@code YYYY-...} can say. */
    private static final int LAST_WRITABLE_YEAR = 9999;
    private static final Pattern ACCEPTED = Pattern.compile(
            "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?(Z|[+-]\\d{2}(:?\\d{2})?)");
    /** An offset written {@code +HHMM}, which the JDK's ISO parser wants as {@code +HH:MM}. */
    private static final Pattern COMPACT_OFFSET = Pattern.compile("([+-]\\d{2})(\\d{2})$");
    /** An offset of whole hours written {@code +HH}, as ISO 8601 allows, which the JDK's ISO parser wants as {@code +HH:00}. */
    private static final Pattern HOURS_OFFSET = Pattern.compile("([+-]\\d{2})$");
    private static final DateTimeFormatter WRITTEN =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private Timestamps() {
    }

    /** The instant a registry text names, or empty when it is null or not an accepted instant. */
    public static Optional<Instant> parse(String text) {
        if (text == null || !ACCEPTED.matcher(text).matches()) {
            return Optional.empty();
        }
        Matcher compact = COMPACT_OFFSET.matcher(text);
        Matcher hours = HOURS_OFFSET.matcher(text);
        String normalized = compact.find() ? compact.replaceFirst("$1:$2")
                : hours.find() ? hours.replaceFirst("$1:00") : text;
        try {
            Instant instant = OffsetDateTime.parse(normalized, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
            // An offset can push a year-9999 text past what the written form can say.
            int year = instant.atOffset(ZoneOffset.UTC).getYear();
            return year >= 0 && year <= LAST_WRITABLE_YEAR ? Optional.of(instant) : Optional.empty();
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** The registry's written form, UTC to the millisecond; null for null. */
    public static String format(Instant instant) {
        return instant == null ? null : WRITTEN.format(instant.truncatedTo(ChronoUnit.MILLIS));
    }
}
