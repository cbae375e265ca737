package dev.fleet.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class PrintableTest {

    @Test
    void controlCharactersAreShownNotObeyed() {
        assertEquals("sleep \\x1b[2K\\x0dGATE SATISFIED\\x0a", Printable.of("sleep \u001b[2K\rGATE SATISFIED\n"));
        assertEquals("del\\x7f c1\\x9b é", Printable.of("del\u007f c1\u009b é"));
    }

    /** Text that reorders what follows it, or breaks the line, is shown too. */
    @Test
    void bidiControlsAndLineSeparatorsAreShownNotObeyed() {
        assertEquals("a\\u202etxt.exe b\\u2066c\\u2069 d\\u2028e\\u2029f\\u200eg\\u200f",
                Printable.of("a\u202etxt.exe b\u2066c\u2069 d\u2028e\u2029f\u200eg\u200f"));
        assertEquals("\\u202a\\u202b\\u202c\\u202d\\u2067\\u2068", Printable.of("\u202a\u202b\u202c\u202d\u2067\u2068"));
        assertEquals("\\u061calm", Printable.of("\u061calm"), "Arabic letter mark, a bidirectional control too");
        String ordinary = "é ß € 𝄞 \u00a0 \u2030 \u2065 \u206a";
        assertSame(ordinary, Printable.of(ordinary));
    }

    /** Every char, escaped or kept, as the format the text output has always used writes it. */
    @Test
    void everyCharIsShownAsItsFormatSays() {
        for (int code = 0; code <= Character.MAX_VALUE; code++) {
            char c = (char) code;
            String expected = !Printable.isControl(c) ? String.valueOf(c)
                    : c <= 0xff ? String.format("\\x%02x", code) : String.format("\\u%04x", code);
            assertEquals("a" + expected + "b", Printable.of("a" + c + "b"), Integer.toHexString(code));
        }
    }

    @Test
    void ordinaryTextIsReturnedAsItIs() {
        String text = "java -jar /opt/fleet/fleet.jar serve --profile prgs-author";
        assertSame(text, Printable.of(text));
        assertNull(Printable.of(null));
    }
}
