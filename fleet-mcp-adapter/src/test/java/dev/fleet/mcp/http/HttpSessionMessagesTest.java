package dev.fleet.mcp.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Messages of a 2025-era session over streamable HTTP that the SDK served badly (the HTTP audit's lows): an id
 * of a lone surrogate came back as bytes that are not UTF-8.
 */
class HttpSessionMessagesTest extends HttpSurfaceFixture {

    @Test
    void anIdOfALoneSurrogateIsEchoedEscapedAndEveryByteIsUtf8() throws Exception {
        running = start(StreamableHttpEndpoint.DEFAULT_HOST, 0);
        String session = initialize();
        for (String method : new String[] {"tools/list\"", "no/such\"", "tools/call\",\"params\":{\"name\":\"no\"}"}) {
            String answer = utf8(http.send(post("{\"jsonrpc\":\"2.0\",\"id\":\"\\ud800\",\"method\":\"" + method + "}")
                    .header("Mcp-Session-Id", session).build(), HttpResponse.BodyHandlers.ofByteArray()).body());
            assertTrue(answer.toLowerCase(Locale.ROOT).contains("\"id\":\"\\ud800\""), answer);
        }
        // A pair is text: it passes as it is, written as UTF-8.
        String pair = utf8(http.send(post("{\"jsonrpc\":\"2.0\",\"id\":\"\\ud83d\\ude00\",\"method\":\"ping\"}")
                .header("Mcp-Session-Id", session).build(), HttpResponse.BodyHandlers.ofByteArray()).body());
        assertTrue(pair.contains("\"id\":\"\uD83D\uDE00\""), pair);
    }

    /** The bytes as UTF-8, read strictly: a byte that is not UTF-8 fails the test. */
    static String utf8(byte[] bytes) throws CharacterCodingException {
        return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
    }
}
