package dev.fleet.domain.host;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How an argv is compared with a launch form (§14, "Matching a command"). */
class LaunchFormTest {

    private static List<String> words(String line) {
        return Arrays.asList(line.split("\\|", -1));
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
            "npx|-y|pkg;npx|-y|pkg;true",
            "/usr/bin/npx|-y|pkg;npx|-y|pkg;true",
            "npx|-y|pkg;/usr/bin/npx|-y|pkg;true",
            "/opt/a/npx|-y|pkg;/usr/bin/npx|-y|pkg;false",
            "npx|-y|pkg|extra;npx|-y|pkg;false",
            "npx|pkg|-y;npx|-y|pkg;false",
            "node|/usr/bin/npx|-y|pkg;/usr/bin/node|/usr/bin/npx|-y|pkg;true",
            "npm exec -y pkg;npm|exec|-y|pkg;true",
            "npm exec -y pkg||;npm|exec|-y|pkg;true",
            "/usr/bin/npm exec -y pkg;npm|exec|-y|pkg;true",
            "npm exec -y other;npm|exec|-y|pkg;false",
            "server|a b;server|a|b;true",
            ";npx;false",
    })
    void matches(String argv, String form, boolean expected) {
        assertEquals(expected, LaunchForm.matches(argv == null ? List.of() : words(argv), words(form)));
    }
}
