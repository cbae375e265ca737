package dev.fleet.observer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.re2j.Pattern;
import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.ProcessObservation;
import dev.fleet.domain.SecretMask;
import dev.fleet.domain.verdict.OutsideText;
import dev.fleet.testing.MarkerProcess;
import dev.fleet.testing.SecretArguments;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * A long command line (any local user's argv may hold megabytes) is matched whole but kept as a verdict shows it:
 * secrets masked while the arguments are apart, then capped, so an observation holds some 4 KB of each process
 * whatever its argv; a long line's shown form is remembered from look to look by the digest of its bytes.
 */
class LongCommandLinesTest {

    @Test
    @EnabledOnOs(OS.LINUX)
    void aLongCommandLineIsMatchedWholeAndKeptMaskedAndCapped() {
        String marker = MarkerProcess.token();
        List<String> arguments = new ArrayList<>(SecretArguments.ARGUMENTS);
        arguments.add("y".repeat(60_000));
        arguments.addAll(List.of("--password", "ZqLate", marker + "-end"));
        try (MarkerProcess child = MarkerProcess.withArguments(marker, arguments.toArray(String[]::new))) {
            ProcfsProcessObserver observer = new ProcfsProcessObserver();
            // Anchored at the line's end, past the cap: only a line read and matched whole is found.
            List<String> patterns = List.of(Pattern.quote("--password ZqLate " + marker + "-end") + "$");

            ObservationOfOne first = ObservationOfOne.of(observer.observe(patterns, Set.of()));
            ObservationOfOne again = ObservationOfOne.of(observer.observe(patterns, Set.of()));

            String shown = OutsideText.cap(SecretMask.argv(child.argv()));
            assertEquals(shown, first.process().commandLine());
            assertTrue(shown.endsWith("…[truncated, " + SecretMask.argv(child.argv()).length() + " chars]"), shown);
            SecretArguments.assertHidden(first.process().commandLine(), "the kept command line");
            assertEquals(first.process().commandLine(), again.process().commandLine(), "the same from look to look");
        }
    }

    @Test
    void aLongLinesShownFormIsRememberedByTheDigestOfItsBytesAndAShortOneIsNot() {
        LongLines memory = new LongLines();
        String longArguments = "srv\0--token\0ZqTokA\0" + "y".repeat(ServerPatterns.LONGEST_REMEMBERED);
        byte[] raw = longArguments.getBytes(StandardCharsets.UTF_8);

        String shown = memory.shown(longArguments, LongLines.keyOf(raw, raw.length));

        assertEquals(OutsideText.cap("srv --token *** " + "y".repeat(ServerPatterns.LONGEST_REMEMBERED)), shown);
        assertSame(shown, memory.shown(longArguments, LongLines.keyOf(raw.clone(), raw.length)), "remembered");
        byte[] other = raw.clone();
        other[other.length - 1] = 'z';
        assertNotSame(shown, memory.shown(longArguments, LongLines.keyOf(other, other.length)),
                "other bytes, another key");
        String shortArguments = "srv\0--token\0ZqTokA";
        byte[] shortRaw = shortArguments.getBytes(StandardCharsets.UTF_8);
        Supplier<String> unused = () -> {
            throw new AssertionError("a short line needs no key");
        };
        assertEquals("srv --token ***", memory.shown(shortArguments, unused));
        assertTrue(LongLines.keyOf(shortRaw, shortRaw.length).get().startsWith("\0"), "no command line is a key");
    }

    @Test
    void theMemoryStartsAfreshPastItsBound() {
        LongLines memory = new LongLines();
        String arguments = "y".repeat(ServerPatterns.LONGEST_REMEMBERED + 1);
        String first = memory.shown(arguments, () -> "\0k-first");
        for (int i = 1; i < LongLines.REMEMBERED; i++) {
            String key = "\0k-" + i;
            memory.shown(arguments, () -> key);
        }
        assertSame(first, memory.shown(arguments, () -> "\0k-first"), "still remembered at the bound");

        memory.shown(arguments, () -> "\0k-past");

        assertNotSame(first, memory.shown(arguments, () -> "\0k-first"), "forgotten once past it");
    }

    /** An observation that holds exactly one process. */
    private record ObservationOfOne(ObservedProcess process) {
        static ObservationOfOne of(ProcessObservation observation) {
            assertEquals(1, observation.processes().size(), () -> "exactly the long one: " + observation.processes());
            return new ObservationOfOne(observation.processes().get(0));
        }
    }
}
