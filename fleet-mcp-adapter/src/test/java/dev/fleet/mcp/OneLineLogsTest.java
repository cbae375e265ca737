package dev.fleet.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Each line printed stays one line, whatever text it carries; bytes written as bytes pass as they are. */
class OneLineLogsTest {

    private final ByteArrayOutputStream written = new ByteArrayOutputStream();
    private final OneLineLogs stderr = new OneLineLogs(written, StandardCharsets.UTF_8);

    @Test
    void aLinePrintedShowsItsControlsAndEndsOnce() {
        stderr.println("unknown id x\n2026-12-06 ERROR lifecycle - FORGED\u001b[31m");
        stderr.println(new IllegalStateException("bad id \r\u009b2J"));

        assertEquals("unknown id x\\x0a2026-12-06 ERROR lifecycle - FORGED\\x1b[31m" + System.lineSeparator()
                + "java.lang.IllegalStateException: bad id \\x0d\\x9b2J" + System.lineSeparator(), text());
    }

    @Test
    void aLineOfAMegabyteOrOfEscapesIsCutAsOutsideTextIs() {
        stderr.println("unknown id " + "y".repeat(1_000_000));
        stderr.println("\u001b".repeat(4_096));

        assertEquals("unknown id " + "y".repeat(4_096 - 11) + "…[truncated, 1000011 chars]" + System.lineSeparator()
                + "\\x1b".repeat(1_024) + "…[truncated, 4096 chars]" + System.lineSeparator(), text());
    }

    /** A character of two chars is never cut in half, where the line is cut. */
    @Test
    void aLongLineIsCutBetweenCharacters() {
        stderr.println("x".repeat(4_095) + "\uD83D\uDE00".repeat(10));

        assertEquals("x".repeat(4_095) + "…[truncated, 4105 chars]" + System.lineSeparator(), text());
    }

    /** A stack trace's frames begin with a tab, which forges no line and stays as it is. */
    @Test
    void aTabStaysATab() {
        stderr.println("\tat dev.fleet.Example.run(Example.java:7)\u001b");

        assertEquals("\tat dev.fleet.Example.run(Example.java:7)\\x1b" + System.lineSeparator(), text());
    }

    @Test
    void bytesWrittenAsBytesPassAsTheyAre() {
        stderr.write('\n');
        stderr.print("as\tgiven\n");

        assertEquals("\nas\tgiven\n", text());
    }

    private String text() {
        stderr.flush();
        return written.toString(StandardCharsets.UTF_8);
    }
}
