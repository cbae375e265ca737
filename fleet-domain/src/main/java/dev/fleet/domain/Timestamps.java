package dev.fleet.domain;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
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
 * from any ISO-8601 instant with an optional 1-9 digit fraction and {@code Z} or a numeric offset,
 * because other tools write whole seconds or {@code +00:00}. Anything else is unparseable.
 *
 * <p>A verdict over thousands of rows reads and writes tens of thousands of these, so the forms in
 * UTC ({@code Z}) are read and written digit by digit; every other accepted form goes through the
 * JDK's parser, and the two ways agree on every input (TimestampsAgreementTest compares them).
 */
public final class Timestamps {

    /** The last year the written form {@code YYYY-...} can say. */
    private static final int LAST_WRITABLE_YEAR = 9999;
    private static final long SECONDS_PER_DAY = 86_400;
    /** 0000-01-01T00:00:00Z and 10000-01-01T00:00:00Z: the instants the written form's four-digit year covers. */
    private static final long FIRST_WRITABLE_SECOND = LocalDate.of(0, 1, 1).toEpochDay() * SECONDS_PER_DAY;
    private static final long PAST_LAST_WRITABLE_SECOND =
            LocalDate.of(LAST_WRITABLE_YEAR + 1, 1, 1).toEpochDay() * SECONDS_PER_DAY;
    /** Days from 0000-01-01 to 1970-01-01. */
    private static final long DAYS_0000_TO_1970 = 719_528;
    /** The length of the written form, {@code YYYY-MM-DDTHH:MM:SS.sssZ}. */
    public static final int WRITTEN_LENGTH = 24;
    private static final int[] NANOS_SCALE = {0, 100_000_000, 10_000_000, 1_000_000, 100_000, 10_000, 1_000, 100, 10, 1};

    private Timestamps() {
    }

    /**
     * The JDK's forms, built at their first use: a registry whose instants are all in UTC never needs
     * them, and a cold JVM spent a few milliseconds compiling the patterns and the formatter at every start.
     */
    private static final class JdkForms {
        static final Pattern ACCEPTED = Pattern.compile(
                "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?(Z|[+-]\\d{2}:?\\d{2})");
        static final Pattern COMPACT_OFFSET = Pattern.compile("([+-]\\d{2})(\\d{2})$");
        static final DateTimeFormatter WRITTEN =
                DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

        private JdkForms() {
        }
    }

    /** The instant a registry text names, or empty when it is null or not an accepted instant. */
    public static Optional<Instant> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        Instant utc = parseUtc(text);
        return utc != null ? Optional.of(utc) : parseGeneral(text);
    }

    /** The registry's written form, UTC to the millisecond. */
    public static String format(Instant instant) {
        if (instant == null) {
            return null;
        }
        byte[] text = new byte[WRITTEN_LENGTH];
        return new Writer().formatInto(instant, text, 0) ? new String(text, StandardCharsets.ISO_8859_1)
                : formatGeneral(instant);
    }

    /**
     * Writes instants in the written form, for a writer that would otherwise make a String of each.
     * It remembers the date of the last instant it wrote: the instants of one document mostly fall
     * on a few days, and the calendar arithmetic is the expensive part. One thread at a time.
     */
    public static final class Writer {
        private static final int DATE_LENGTH = 11;
        /** The first second of the remembered day; none is remembered while this is past every writable second. */
        private long dayStart = PAST_LAST_WRITABLE_SECOND;
        /** {@code YYYY-MM-DDT} of that day. */
        private final byte[] date = new byte[DATE_LENGTH];

        /**
         * Writes {@link Timestamps#format}'s {@value Timestamps#WRITTEN_LENGTH} characters (ASCII, one
         * byte each) for {@code instant} into {@code target} at {@code at}; false, writing nothing, for
         * an instant outside the years 0000-9999 (then use {@link Timestamps#format}).
         */
        public boolean formatInto(Instant instant, byte[] target, int at) {
            long seconds = instant.getEpochSecond();
            if (seconds < FIRST_WRITABLE_SECOND || seconds >= PAST_LAST_WRITABLE_SECOND) {
                return false;
            }
            long secondOfDay = seconds - dayStart;
            if (secondOfDay < 0 || secondOfDay >= SECONDS_PER_DAY) {
                long day = Math.floorDiv(seconds, SECONDS_PER_DAY);
                remember(LocalDate.ofEpochDay(day));
                dayStart = day * SECONDS_PER_DAY;
                secondOfDay = seconds - dayStart;
            }
            System.arraycopy(date, 0, target, at, DATE_LENGTH);
            int second = (int) secondOfDay;
            twoDigits(target, at + 11, second / 3600);
            target[at + 13] = ':';
            twoDigits(target, at + 14, second / 60 % 60);
            target[at + 16] = ':';
            twoDigits(target, at + 17, second % 60);
            target[at + 19] = '.';
            int millis = instant.getNano() / 1_000_000;
            target[at + 20] = (byte) ('0' + millis / 100);
            twoDigits(target, at + 21, millis % 100);
            target[at + 23] = 'Z';
            return true;
        }

        private void remember(LocalDate day) {
            int year = day.getYear();
            twoDigits(date, 0, year / 100);
            twoDigits(date, 2, year % 100);
            date[4] = '-';
            twoDigits(date, 5, day.getMonthValue());
            date[7] = '-';
            twoDigits(date, 8, day.getDayOfMonth());
            date[10] = 'T';
        }
    }

    /** The JDK's reading of every accepted form; the reference {@link #parse} agrees with. */
    static Optional<Instant> parseGeneral(String text) {
        if (text == null || !JdkForms.ACCEPTED.matcher(text).matches()) {
            return Optional.empty();
        }
        Matcher compact = JdkForms.COMPACT_OFFSET.matcher(text);
        String normalized = compact.find() ? compact.replaceFirst("$1:$2") : text;
        try {
            Instant instant = OffsetDateTime.parse(normalized, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
            // An offset can push a year-9999 text past what the written form can say.
            int year = instant.atOffset(ZoneOffset.UTC).getYear();
            return year >= 0 && year <= LAST_WRITABLE_YEAR ? Optional.of(instant) : Optional.empty();
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** The JDK's writing; the reference {@link #format} agrees with. */
    static String formatGeneral(Instant instant) {
        return instant == null ? null : JdkForms.WRITTEN.format(instant.truncatedTo(ChronoUnit.MILLIS));
    }

    /**
     * {@code YYYY-MM-DDTHH:MM:SS[.f{1,9}]Z}, read digit by digit with the JDK's strict rules (a real
     * date, hours 0-23, minutes and seconds 0-59); null for anything else, which
     * {@link #parseGeneral} then decides.
     */
    private static Instant parseUtc(String text) {
        int length = text.length();
        if (length < 20 || length > 30 || text.charAt(length - 1) != 'Z' || text.charAt(4) != '-'
                || text.charAt(7) != '-' || text.charAt(10) != 'T' || text.charAt(13) != ':'
                || text.charAt(16) != ':') {
            return null;
        }
        int year = number(text, 0, 4);
        int month = number(text, 5, 2);
        int day = number(text, 8, 2);
        int hour = number(text, 11, 2);
        int minute = number(text, 14, 2);
        int second = number(text, 17, 2);
        if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59
                || second < 0 || second > 59) {
            return null;
        }
        int nanos = 0;
        if (length > 20) {
            int fractionDigits = length - 21;
            if (text.charAt(19) != '.' || fractionDigits < 1 || fractionDigits > 9) {
                return null;
            }
            int fraction = number(text, 20, fractionDigits);
            if (fraction < 0) {
                return null;
            }
            nanos = fraction * NANOS_SCALE[fractionDigits];
        }
        if (day > 28 && day > lengthOfMonth(year, month)) {
            return null;
        }
        return Instant.ofEpochSecond(epochDay(year, month, day) * SECONDS_PER_DAY + hour * 3600L + minute * 60L + second,
                nanos);
    }

    /**
     * {@code LocalDate.of(year, month, day).toEpochDay()} for a valid date of a year 0-9999, by the
     * JDK's own arithmetic, without a LocalDate and its field checks: a registry read parses four
     * instants a row, and a cold JVM interprets every call of them.
     */
    private static long epochDay(int year, int month, int day) {
        long days = 365L * year + (year + 3) / 4 - (year + 99) / 100 + (year + 399) / 400
                + (367 * month - 362) / 12 + day - 1;
        if (month > 2) {
            days -= isLeap(year) ? 1 : 2;
        }
        return days - DAYS_0000_TO_1970;
    }

    private static int lengthOfMonth(int year, int month) {
        return switch (month) {
            case 2 -> isLeap(year) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    /** The proleptic Gregorian calendar's rule, as {@code IsoChronology} has it. */
    private static boolean isLeap(int year) {
        return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    }

    /** The decimal number of {@code count} ASCII digits at {@code from}, or -1. */
    private static int number(String text, int from, int count) {
        int value = 0;
        for (int i = from; i < from + count; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    private static void twoDigits(byte[] text, int at, int value) {
        text[at] = (byte) ('0' + value / 10);
        text[at + 1] = (byte) ('0' + value % 10);
    }
}
