package dev.fleet.registry.sqlite;

import static dev.fleet.registry.sqlite.jooq.Tables.MCP_SERVER_RUNTIMES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Arrays;
import java.util.stream.Collectors;
import org.jooq.Field;
import org.junit.jupiter.api.Test;

/** The read side's plain-JDBC query names exactly the generated table and its columns. */
class RowQueryTest {

    @Test
    void theColumnsAreTheGeneratedTablesInItsOrder() {
        assertEquals(MCP_SERVER_RUNTIMES.getName(), RowQuery.TABLE);
        assertEquals(Arrays.stream(MCP_SERVER_RUNTIMES.fields()).map(Field::getName).toList(), RowQuery.COLUMNS);
        assertEquals(RegistryColumns.OWN.stream().map(Field::getName).collect(Collectors.toSet()), RowQuery.OWN);
    }

    @Test
    void aPidIsAWholeNumberOfAtMostEighteenDigitsOrNothing() {
        assertEquals(12L, RowQuery.wholeNumber("12"));
        assertEquals(-3L, RowQuery.wholeNumber("-3"));
        assertEquals(123L, RowQuery.wholeNumber("0123"));
        assertEquals(999_999_999_999_999_999L, RowQuery.wholeNumber("999999999999999999"));
        for (String text : new String[] {null, "", "-", "12.7", "12.0", " 12", "1e3", "1234567890123456789", "+5", "٣"}) {
            assertNull(RowQuery.wholeNumber(text), String.valueOf(text));
        }
    }
}
