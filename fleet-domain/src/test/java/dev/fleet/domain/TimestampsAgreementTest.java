package dev.fleet.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link Timestamps} reads and writes the UTC forms digit by digit; the JDK's formatter and parser
 * are the reference. Both ways must agree on every input, accepted or not.
 */
class TimestampsAgreementTest {

    @Test
    void readingAgreesWithTheJdkOnEdgesAndNearMisses() {
        List<String> texts = new ArrayList<>(List.of(
                "2026-07-28T02:00:00Z", "2026-07-28T02:00:00.000Z", "2026-07-28T02:00:00.5Z",
                "2026-07-28T02:00:00.123456789Z", "2026-07-28T02:00:00.1234567890Z", "2026-07-28T02:00:00.Z",
                "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z", "2024-02-29T00:00:00Z",
                "2023-02-29T00:00:00Z", "2100-02-29T00:00:00Z", "2000-02-29T12:00:00Z", "2026-04-31T00:00:00Z",
                "2026-04-30T00:00:00Z", "2026-00-10T00:00:00Z", "2026-13-10T00:00:00Z", "2026-01-00T00:00:00Z",
                "2026-01-32T00:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01T23:60:00Z", "2026-01-01T23:59:60Z",
                "2026-01-01T23:59:59z", "2026-01-01t23:59:59Z", "2026-01-01 23:59:59Z", "2026-01-01T23:59:59",
                "2026-01-01T23:59:59+00:00", "2026-01-01T23:59:59-0000", "2026-07-28T04:00:00.250+02:00",
                "9999-12-31T23:59:59-14:00", "0000-01-01T00:00:00+01:00", "+2026-01-01T00:00:00Z",
                "2026-1-01T00:00:00Z", "20260-01-01T00:00:00Z", "2026-01-01T00:00:00.+1Z", "2026-01-01T00:00:00.-1Z",
                "２０２６-01-01T00:00:00Z", "2026-01-01T00:00:00.1 Z", "", "Z", "not a time"));
        Random random = new Random(20261201);
        String alphabet = "0123456789-T:.Z+ ";
        for (int i = 0; i < 20_000; i++) {
            // A valid-looking stamp with one character replaced, or fields at random.
            String stamp = String.format("%04d-%02d-%02dT%02d:%02d:%02d%sZ", random.nextInt(10_000),
                    random.nextInt(14), random.nextInt(33), random.nextInt(26), random.nextInt(62), random.nextInt(62),
                    random.nextBoolean() ? "" : "." + Long.toString(Math.abs(random.nextLong())).substring(0,
                            1 + random.nextInt(10)));
            texts.add(stamp);
            char[] mutated = stamp.toCharArray();
            mutated[random.nextInt(mutated.length)] = alphabet.charAt(random.nextInt(alphabet.length()));
            texts.add(new String(mutated));
        }
        for (String text : texts) {
            assertEquals(Timestamps.parseGeneral(text), Timestamps.parse(text), text);
        }
    }

    @Test
    void writingAgreesWithTheJdk() {
        List<Instant> instants = new ArrayList<>(List.of(Instant.EPOCH, Instant.parse("0000-01-01T00:00:00Z"),
                Instant.parse("9999-12-31T23:59:59.999999999Z"), Instant.parse("-0001-12-31T23:59:59.999Z"),
                Instant.parse("+10000-01-01T00:00:00Z"), Instant.parse("1969-12-31T23:59:59.999999999Z"),
                Instant.parse("2024-02-29T23:59:59.9995Z")));
        Random random = new Random(20261201);
        for (int i = 0; i < 20_000; i++) {
            instants.add(Instant.ofEpochSecond(random.nextLong() % 300_000_000_000L, random.nextInt(1_000_000_000)));
        }
        for (Instant instant : instants) {
            assertEquals(Timestamps.formatGeneral(instant), Timestamps.format(instant), instant.toString());
        }
    }

    /** One writer across many instants, remembering each day's date: near neighbours, day ends, far jumps. */
    @Test
    void aWriterThatRemembersTheDayAgreesWithTheJdk() {
        List<Instant> instants = new ArrayList<>(List.of(Instant.parse("9999-12-31T23:59:59.999Z"),
                Instant.parse("+10000-01-01T00:00:00Z"), Instant.parse("9999-12-31T00:00:00Z"),
                Instant.parse("0000-01-01T00:00:00Z"), Instant.parse("-0001-12-31T23:59:59.999Z"),
                Instant.parse("0000-01-01T23:59:59Z"), Instant.parse("0000-01-02T00:00:00Z"),
                Instant.parse("1969-12-31T23:59:59.999Z"), Instant.EPOCH, Instant.parse("1969-12-31T00:00:00Z")));
        Random random = new Random(20261202);
        Instant at = Instant.parse("2026-07-28T23:59:58Z");
        for (int i = 0; i < 20_000; i++) {
            long step = switch (random.nextInt(4)) {
                case 0 -> random.nextInt(3) - 1;
                case 1 -> random.nextInt(172_800) - 86_400;
                case 2 -> random.nextLong() % 300_000_000_000L - at.getEpochSecond();
                default -> 86_400L * (random.nextInt(3) - 1);
            };
            at = Instant.ofEpochSecond(at.getEpochSecond() + step, random.nextInt(1_000_000_000));
            instants.add(at);
        }
        Timestamps.Writer writer = new Timestamps.Writer();
        byte[] target = new byte[Timestamps.WRITTEN_LENGTH + 2];
        for (Instant instant : instants) {
            String expected = Timestamps.formatGeneral(instant);
            boolean written = writer.formatInto(instant, target, 1);
            String actual = written ? new String(target, 1, Timestamps.WRITTEN_LENGTH, StandardCharsets.US_ASCII) : null;
            assertEquals(expected.length() == Timestamps.WRITTEN_LENGTH ? expected : null, actual, instant.toString());
        }
    }
}
