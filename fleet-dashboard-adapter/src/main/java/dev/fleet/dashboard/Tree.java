package dev.fleet.dashboard;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;

/**
 * Reading the verdict's document ({@code VerdictDocument.toTree}, the JSON the page's script gets) by
 * its field names, as the script reads it, and its times as the page shows them before the script
 * runs: in UTC, since only the browser knows its own time zone.
 */
final class Tree {

    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyy-MM-dd");
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

    private Tree() {
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object node, String field) {
        return (Map<String, Object>) ((Map<String, Object>) node).get(field);
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> list(Object node, String field) {
        return (List<Map<String, Object>>) ((Map<String, Object>) node).get(field);
    }

    /** The field's value, null when it is null. */
    @SuppressWarnings("unchecked")
    static Object value(Object node, String field) {
        return ((Map<String, Object>) node).get(field);
    }

    static boolean isTrue(Object node, String field) {
        return Boolean.TRUE.equals(value(node, field));
    }

    /** {@code namespace/profile}, the name an entry goes by. */
    static String name(Object entry) {
        return value(entry, "namespace") + "/" + value(entry, "profile");
    }

    /** The key a member goes by: a NUL, which no name holds, between namespace and profile, as dashboard.js keys it. */
    static String key(Object entry) {
        return value(entry, "namespace") + "\0" + value(entry, "profile");
    }

    /** An instant of the verdict as {@code 2026-07-28 01:59:59}; a text that is no instant, as it is. */
    static Object utcTime(Object iso) {
        LocalDateTime time = utc(iso);
        return time == null ? iso : DATE.format(time) + " " + CLOCK.format(time);
    }

    /** A time's title: the time, its zone and the instant as the verdict has it; a text that is no instant, as is. */
    static String utcTitle(Object iso) {
        return utc(iso) == null ? (iso == null ? "" : String.valueOf(iso)) : utcTime(iso) + " UTC (" + iso + ")";
    }

    /** Shorter, for a card: the time alone on the day of {@code reference} (the observation), else the date. */
    static Object utcShort(Object iso, Object reference) {
        LocalDateTime time = utc(iso);
        if (time == null) {
            return iso;
        }
        LocalDateTime day = utc(reference);
        return day != null && day.toLocalDate().equals(time.toLocalDate()) ? CLOCK.format(time) : DATE.format(time);
    }

    private static LocalDateTime utc(Object iso) {
        if (!(iso instanceof String text)) {
            return null;
        }
        try {
            return LocalDateTime.ofInstant(Instant.parse(text), ZoneOffset.UTC);
        } catch (DateTimeParseException notATime) {
            return null;
        }
    }
}
