package dev.fleet.registry.schema;

import static dev.fleet.registry.schema.jooq.Tables.MCP_SERVER_RUNTIMES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.fleet.domain.RegistryRow;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;
import org.jooq.Field;
import org.junit.jupiter.api.Test;

/** The one column list names exactly the generated table's columns (typed as its own), and the domain row's components. */
class RegistryColumnTest {

    private static final List<String> SQL_NAMES = RegistryColumn.ALL.stream().map(RegistryColumn::sqlName).toList();

    @Test
    void theColumnsAreTheGeneratedTablesInItsOrder() {
        assertEquals(Arrays.stream(MCP_SERVER_RUNTIMES.fields()).map(Field::getName).toList(),
                SQL_NAMES);
        for (RegistryColumn column : RegistryColumn.ALL) {
            // An INTEGER column is a 64-bit one in the generated table too: a pid never narrows to an int.
            assertEquals(column.isInteger() ? Long.class : String.class, RegistryFields.of(column).getType(),
                    column.sqlName());
        }
    }

    @Test
    void everyComponentOfTheDomainRowHasItsColumnInTheSameOrder() {
        assertEquals(Arrays.stream(RegistryRow.class.getRecordComponents()).map(RecordComponent::getName)
                .map(RegistryColumnTest::snakeCase).toList(), SQL_NAMES);
    }

    @Test
    void eachColumnMapsItsOwnComponentBothWays() {
        String[] text = new String[RegistryColumn.ALL.size()];
        for (RegistryColumn column : RegistryColumn.ALL) {
            // An INTEGER column's value arrives as its digits: a distinct number per column.
            text[column.ordinal()] = column.isInteger() ? String.valueOf(1000 + column.ordinal()) : "v-" + column.sqlName();
        }
        RegistryRow row = RegistryColumn.toRow(text, 42L);
        for (RegistryColumn column : RegistryColumn.ALL) {
            Object expected = column == RegistryColumn.PID ? (Object) 42L
                    : column.isInteger() ? (Object) (1000L + column.ordinal()) : "v-" + column.sqlName();
            assertEquals(expected, column.valueOf(row), column.sqlName());
        }
    }

    @Test
    void aPidIsAWholeNumberOfAtMostEighteenDigitsNothingOrOneThatNamesNoProcess() {
        assertEquals(12L, RegistryColumn.wholeNumber("12"));
        assertEquals(-3L, RegistryColumn.wholeNumber("-3"));
        assertEquals(123L, RegistryColumn.wholeNumber("0123"));
        assertEquals(999_999_999_999_999_999L, RegistryColumn.wholeNumber("999999999999999999"));
        assertNull(RegistryColumn.wholeNumber(null));
        for (String text : new String[] {"", "-", "12.7", "12.0", " 12", "1e3", "1234567890123456789", "+5", "٣"}) {
            assertEquals(-1L, RegistryColumn.wholeNumber(text), text);
        }
    }

    private static String snakeCase(String camel) {
        StringBuilder snake = new StringBuilder();
        for (char c : camel.toCharArray()) {
            snake.append(Character.isUpperCase(c) ? "_" + Character.toLowerCase(c) : String.valueOf(c));
        }
        return snake.toString();
    }
}
