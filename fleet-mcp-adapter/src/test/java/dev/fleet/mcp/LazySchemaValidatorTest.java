package dev.fleet.mcp;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class LazySchemaValidatorTest {

    private static final Map<String, Object> COUNT = Map.of("type", "object", "required", java.util.List.of("n"),
            "properties", Map.of("n", Map.of("type", "integer")));

    @Test
    void resultsAreStillValidatedByTheRealValidator() {
        LazySchemaValidator validator = new LazySchemaValidator();
        assertTrue(validator.validate(COUNT, Map.of("n", 3)).valid());
        assertFalse(validator.validate(COUNT, Map.of("n", "three")).valid(), "a string is no integer");
        assertFalse(validator.validate(COUNT, Map.of()).valid(), "n is required");
    }
}
