package dev.fleet.cli.option;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine.TypeConversionException;

/** {@code --lease} takes the one duration syntax of every option, from 1ms to 24h. */
class LeaseConverterTest {

    private final LeaseConverter converter = new LeaseConverter();

    @Test
    void aDurationInTheOneSyntaxIsTheLease() {
        assertEquals(Duration.ofSeconds(90), converter.convert("90s").length());
        assertEquals(Duration.ofMillis(1), converter.convert("1ms").length());
        assertEquals(Duration.ofHours(24), converter.convert("24h").length());
    }

    @ParameterizedTest
    @ValueSource(strings = {" 90s", "90s ", "1.5s", "90", "PT90S", ""})
    void anythingElseIsRefusedWithTheSyntaxToWrite(String value) {
        // picocli puts "Invalid value for option '--lease': " before it: the option is named once.
        TypeConversionException refused = assertThrows(TypeConversionException.class, () -> converter.convert(value));
        assertEquals("'" + value + "' is not a duration: write a whole number followed by ms, s, m or h "
                + "(500ms, 2s, 5m, 1h)", refused.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"0s", "0ms", "25h", "1441m"})
    void aLeaseOutsideOneMillisecondToADayIsRefused(String value) {
        TypeConversionException refused = assertThrows(TypeConversionException.class, () -> converter.convert(value));
        assertEquals("--lease must be from 1ms to 24h, got " + value, refused.getMessage());
    }
}
