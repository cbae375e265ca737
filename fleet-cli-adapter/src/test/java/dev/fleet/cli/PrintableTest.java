package dev.fleet.cli;

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

    @Test
    void ordinaryTextIsReturnedAsItIs() {
        String text = "java -jar /opt/fleet/fleet.jar serve --profile prgs-author";
        assertSame(text, Printable.of(text));
        assertNull(Printable.of(null));
    }

    @Test
    void tablesPrintOtherPeoplesTextSafely() {
        assertEquals("PID  COMMAND\n7    evil\\x1b[31m\n", new Table("PID", "COMMAND").row(7, "evil\u001b[31m").render()
                .replace(System.lineSeparator(), "\n"));
    }
}
