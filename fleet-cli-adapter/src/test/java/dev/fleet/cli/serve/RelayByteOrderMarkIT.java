package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fleet.cli.testing.ServeProcess;
import dev.fleet.cli.testing.TestFleets;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A line that begins with a UTF-8 byte order mark, from either side: JSON lets fleet's reader ignore the mark, but
 * passed on with it, the line is no JSON to a strict reader (Node's {@code JSON.parse}, the TypeScript SDK's), and
 * its answer was lost in the client (the relay audit's find). The mark is dropped; the message passes as it came.
 */
class RelayByteOrderMarkIT {

    private static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
    private static final String PONG = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}";

    @TempDir
    Path dir;

    @Test
    void aMarkBeforeALineIsDroppedInBothDirections() throws Exception {
        Path registry = dir.resolve("registry.sqlite3");
        Path received = dir.resolve("received");
        // The child keeps the line it read, then answers with a marked line, then waits for its stdin's end.
        String child = "IFS= read -r line; printf '%s\\n' \"$line\" > " + received + "; printf '\\357\\273\\277%s\\n' '"
                + PONG + "'; cat > /dev/null";
        try (ServeProcess member = ServeProcess.start(WrappedMembers.wrapping(registry, "prgs-author",
                List.of("bash", "-c", child)), "prgs-author", Map.of())) {
            TestFleets.awaitRunningRows(registry, 1);
            byte[] mark = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
            byte[] line = (PING + "\n").getBytes(StandardCharsets.UTF_8);
            byte[] marked = new byte[mark.length + line.length];
            System.arraycopy(mark, 0, marked, 0, mark.length);
            System.arraycopy(line, 0, marked, mark.length, line.length);
            member.sendBytes(marked);

            member.response(1); // read as JSON: a mark before it would fail the read
            assertEquals(List.of(PONG), member.stdoutLines(), member.diagnosis(20));
            assertEquals(PING + "\n", Files.readString(received, StandardCharsets.UTF_8), "the child got no mark");
        }
    }
}
