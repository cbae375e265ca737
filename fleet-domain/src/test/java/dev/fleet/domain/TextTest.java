package dev.fleet.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The one meaning of a space, and of blank text, whatever the char. */
class TextTest {

    @Test
    void everyCharIsASpaceExactlyWhenTheJdkCallsItWhitespaceOrASpaceSeparator() {
        int spaces = 0;
        for (int c = Character.MIN_VALUE; c <= Character.MAX_VALUE; c++) {
            char ch = (char) c;
            boolean expected = Character.isWhitespace(ch) || Character.isSpaceChar(ch);
            assertEquals(expected, Text.isSpace(ch), () -> String.format("U+%04X", (int) ch));
            spaces += expected ? 1 : 0;
        }
        // Tab to CR, the four separators U+001C-U+001F, and the Unicode spaces: more than the ASCII ones.
        assertTrue(spaces > 20, "spaces found: " + spaces);
    }

    @Test
    void blankMeansNothingButSpacesOfAnyKind() {
        assertTrue(Text.isBlank(null));
        assertTrue(Text.isBlank(""));
        assertTrue(Text.isBlank(" \t\n\u000B\f\r\u001C\u001F"));
        assertTrue(Text.isBlank("\u00A0\u2003\u3000"), "NBSP, EM SPACE, IDEOGRAPHIC SPACE");
        assertFalse(Text.isBlank("\u0000"), "NUL is no space");
        assertFalse(Text.isBlank(" x "));
        assertEquals("x y", Text.strip("\u00A0 x y\u001F\t"));
        assertNull(Text.strip(null));
    }
}
