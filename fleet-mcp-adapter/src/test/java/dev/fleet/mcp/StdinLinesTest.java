package dev.fleet.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class StdinLinesTest {

    private final AtomicInteger ends = new AtomicInteger();

    private StdinLines over(String input) {
        return new StdinLines(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), ends::incrementAndGet);
    }

    @Test
    void passesMessagesThroughAndDropsBlankLines() throws IOException {
        StdinLines stdin = over("\n{\"a\":1}\r\n  \t\n\n{\"é\":2}");

        assertEquals("{\"a\":1}\n{\"é\":2}\n", new String(stdin.readAllBytes(), StandardCharsets.UTF_8));
        assertEquals(1, ends.get(), "the end is signalled once");
        assertEquals(-1, stdin.read());
        assertEquals(1, ends.get());
    }

    @Test
    void aReadNeverWaitsForMoreThanTheLineAtHand() throws IOException {
        StdinLines stdin = over("{\"id\":1}\n{\"id\":2}\n");
        byte[] buffer = new byte[100];

        assertEquals("{\"id\":1}\n", new String(buffer, 0, stdin.read(buffer, 0, 100), StandardCharsets.UTF_8));
        assertEquals(0, ends.get());
    }

    @Test
    void aReadErrorIsTheEndToo() {
        InputStream broken = new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("stdin is gone");
            }
        };
        StdinLines stdin = new StdinLines(broken, ends::incrementAndGet);

        assertThrows(IOException.class, stdin::read);
        assertEquals(1, ends.get());
    }
}
