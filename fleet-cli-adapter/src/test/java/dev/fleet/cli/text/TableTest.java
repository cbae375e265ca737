package dev.fleet.cli.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TableTest {

    @Test
    void tablesPrintOtherPeoplesTextSafely() {
        assertEquals("PID  COMMAND\n7    evil\\x1b[31m\n", new Table("PID", "COMMAND").row(7, "evil\u001b[31m").render()
                .replace(System.lineSeparator(), "\n"));
    }
}
